// @vitest-environment node
// The signed decision events (server/outbox/events.ts): Standard Webhooks' envelope and headers, to a
// real receiver on 127.0.0.1, verified with the standardwebhooks library's own Webhook.verify.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventsEnabled, readConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { cohorts, deliveries, submissions, type DecisionEvent } from '../../server/db/schema.ts';
import { EVENTS_SECRET_MAX_BYTES, EVENTS_SECRET_MIN_BYTES } from '../../server/limits.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import { eventChannel } from '../../server/outbox/events.ts';
import { startOutbox } from '../../server/outbox/sender.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { eventReceiver as receiver, secretOf, signed } from '../support/eventReceiver.ts';
import { until } from '../support/mailServer.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';

const cleanup = cleanupAfterEach();

/** An invite request accepted into "Cohort 3", with its `invite.accepted` row as a decision writes it. */
async function acceptedWithEvent(database: Database) {
  const id = await storeSubmission(database.db, submissionBody({ workEmail: 'ada@example.com', companyName: 'Analytical Ltd' }));
  const [cohort] = await database.db.insert(cohorts).values({ name: 'Cohort 3', startsOn: '2027-01-15', createdBy: 'ops' }).returning();
  await database.db.update(submissions).set({ reviewState: 'accepted', cohortId: cohort!.id, handledAt: sql`now()`, handledBy: 'ops' }).where(eq(submissions.id, id));
  const data = { requestId: id, workEmail: 'ada@example.com', company: 'Analytical Ltd', cohort: { name: 'Cohort 3', startsOn: '2027-01-15' }, decidedAt: '2026-11-26T09:00:00.000Z' };
  return { id, data, row: await storeEvent(database, id, 'invite.accepted', data) };
}

async function storeEvent(database: Database, submissionId: string, event: DecisionEvent, payload: Record<string, unknown>) {
  const [row] = await database.db.insert(deliveries).values({ submissionId, channel: 'event', event, payload }).returning();
  return row!;
}

const rowOf = async (database: Database, id: string) => (await database.db.select().from(deliveries).where(eq(deliveries.id, id)))[0]!;

describe.each(testEngines())('decision events on $name', (engine) => {
  async function setUp(statuses: number[] = [], logger: Logger = createLogger('silent')) {
    const database = await engine.open();
    const hook = await receiver(statuses);
    const secret = secretOf();
    cleanup.push(() => database.close(), () => hook.close());
    const sender = startOutbox({ db: database.db, channels: [eventChannel({ url: hook.url, secret })], logger, firstRetryMs: 20, pollIntervalMs: 20 });
    cleanup.push(() => sender.stop());
    return { database, hook, secret };
  }

  it('sends a stored invite.accepted once, with the three headers, and it verifies with the library\'s own Webhook.verify', async () => {
    const { database, hook, secret } = await setUp();
    const { id, data, row } = await acceptedWithEvent(database);
    await until(async () => (await rowOf(database, row.id)).deliveredAt !== null);
    await new Promise((resolve) => setTimeout(resolve, 200)); // several polls: nothing more is sent
    expect(hook.received).toHaveLength(1);
    const [{ body, headers }] = hook.received as [(typeof hook.received)[number]];
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe(row.id);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, signed(headers))).toEqual({ type: 'invite.accepted', timestamp: row.createdAt.toISOString(), data });
    expect(JSON.parse(body)).toMatchObject({ data: { requestId: id, cohort: { name: 'Cohort 3' } } });
    expect(await rowOf(database, row.id)).toMatchObject({ attempts: 1, failedAt: null, lastError: null });
  });

  it('fails verification for a tampered body, another id, an old timestamp or another secret', async () => {
    const { database, hook, secret } = await setUp();
    const { row } = await acceptedWithEvent(database);
    await until(() => hook.received.length === 1);
    const [{ body, headers }] = hook.received as [(typeof hook.received)[number]];
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(body, signed(headers))).not.toThrow();
    expect(() => verifier.verify(body.replace('Analytical Ltd', 'Analytical Inc'), signed(headers))).toThrow(WebhookVerificationError);
    expect(() => verifier.verify(body, { ...signed(headers), 'webhook-id': `${row.id}x` })).toThrow(WebhookVerificationError);
    const anHourAgo = String(Number(headers['webhook-timestamp']) - 3600);
    expect(() => verifier.verify(body, { ...signed(headers), 'webhook-timestamp': anHourAgo })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secretOf()).verify(body, signed(headers))).toThrow(WebhookVerificationError);
  });

  it('retries after a 500 and a redirect (not followed), then is delivered: the same webhook-id and body, each attempt signed anew', async () => {
    const { database, hook, secret } = await setUp([500, 302]);
    const { row } = await acceptedWithEvent(database);
    await until(async () => (await rowOf(database, row.id)).deliveredAt !== null);
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([row.id, row.id, row.id]);
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
    for (const { body, headers } of hook.received) expect(() => new Webhook(secret).verify(body, signed(headers))).not.toThrow();
    expect(await rowOf(database, row.id)).toMatchObject({ attempts: 3, failedAt: null, lastError: null });
  });

  it('sends invite.waitlisted, invite.declined and privacy.responded with their data as stored', async () => {
    const { database, hook, secret } = await setUp();
    const invite = await storeSubmission(database.db, submissionBody());
    const privacy = await storeSubmission(database.db, privacyRequestBody());
    const stored = [
      await storeEvent(database, invite, 'invite.waitlisted', { requestId: invite, workEmail: 'ada@example.com', company: 'Analytical Ltd', decidedAt: '2026-11-26T09:00:00.000Z' }),
      await storeEvent(database, invite, 'invite.declined', { requestId: invite, workEmail: 'ada@example.com', company: 'Analytical Ltd', decidedAt: '2026-11-26T09:01:00.000Z' }),
      await storeEvent(database, privacy, 'privacy.responded', { requestId: privacy, requestTypes: ['Delete'], outcome: 'complied', respondedAt: '2026-11-26T09:02:00.000Z' }),
    ];
    await until(() => hook.received.length === 3);
    const verified = hook.received.map(({ body, headers }) => ({ id: headers['webhook-id'], envelope: new Webhook(secret).verify(body, signed(headers)) }));
    for (const row of stored) {
      expect(verified.find((v) => v.id === row.id)?.envelope).toEqual({ type: row.event, timestamp: row.createdAt.toISOString(), data: row.payload });
    }
  });

  it('logs ids, the event type and the status, never the data (email, company, cohort) or the receiver\'s answer', async () => {
    const lines: string[] = [];
    const { database } = await setUp([500], createLogger('debug', { write: (line: string) => void lines.push(line) }));
    const { row } = await acceptedWithEvent(database);
    await until(async () => (await rowOf(database, row.id)).deliveredAt !== null);
    const log = lines.join('\n');
    expect(log).toContain('not delivered; will retry');
    expect(log).toContain('"problem":"HTTP 500"');
    expect(log).toContain('"event":"invite.accepted"');
    expect(log).toContain(row.id);
    for (const piece of ['ada@example.com', 'Analytical', 'Cohort 3', '2027-01-15', 'the receiver says', 'whsec_']) expect(log).not.toContain(piece);
    expect((await rowOf(database, row.id)).lastError).toBeNull();
  });
});

describe('the server with SONDE_EVENTS_WEBHOOK_URL', () => {
  let distDir: string;
  beforeAll(async () => {
    distDir = await writeStandInSite();
  });

  it('runs the event channel: a stored event row reaches the receiver, signed with the configured secret', async () => {
    const hook = await receiver();
    cleanup.push(() => hook.close());
    const secret = secretOf();
    const server = await startTestServer(testConfig(distDir, { events: { url: hook.url, secret } }), createLogger('silent'));
    cleanup.push(() => server.stop());
    const { row } = await acceptedWithEvent(server.database);
    await until(() => hook.received.length === 1);
    const [{ body, headers }] = hook.received as [(typeof hook.received)[number]];
    expect(headers['webhook-id']).toBe(row.id);
    expect(new Webhook(secret).verify(body, signed(headers))).toMatchObject({ type: 'invite.accepted' });
  });
});

describe('the configuration of the decision events', () => {
  const url = 'https://onboarding.example/hooks/sonde';

  it('runs no event channel without SONDE_EVENTS_WEBHOOK_URL, and one with both variables', () => {
    expect(readConfig({}).events).toBeUndefined();
    expect(eventsEnabled(readConfig({}))).toBe(false);
    const secret = secretOf();
    const config = readConfig({ SONDE_EVENTS_WEBHOOK_URL: url, SONDE_EVENTS_WEBHOOK_SECRET: secret });
    expect(config.events).toEqual({ url, secret });
    expect(eventsEnabled(config)).toBe(true);
  });

  it('refuses a URL without its secret, in one line naming both variables', () => {
    expect(() => readConfig({ SONDE_EVENTS_WEBHOOK_URL: url })).toThrow(/^SONDE_EVENTS_WEBHOOK_URL is set without SONDE_EVENTS_WEBHOOK_SECRET: set it to whsec_[^\n]*$/);
  });

  it('refuses a URL that is not http(s)', () => {
    for (const bad of ['ftp://onboarding.example/x', 'onboarding.example/x', 'javascript:alert(1)']) {
      expect(() => readConfig({ SONDE_EVENTS_WEBHOOK_URL: bad, SONDE_EVENTS_WEBHOOK_SECRET: secretOf() })).toThrow(/^SONDE_EVENTS_WEBHOOK_URL must be an http\(s\) URL/);
    }
  });

  it(`refuses a secret that is not whsec_ + base64 of ${EVENTS_SECRET_MIN_BYTES} to ${EVENTS_SECRET_MAX_BYTES} bytes, and never quotes it`, () => {
    const base64 = (bytes: number) => randomBytes(bytes).toString('base64');
    const bad = [
      base64(32), // no prefix
      `whsk_${base64(32)}`, // the asymmetric scheme's prefix
      'whsec_',
      `whsec_${base64(32).replace(/=*$/, '')}!`, // not base64
      `whsec_${randomBytes(32).toString('hex')}`.slice(0, 40) + '%%', // not base64
      `whsec_${base64(EVENTS_SECRET_MIN_BYTES - 1)}`,
      `whsec_${base64(EVENTS_SECRET_MAX_BYTES + 1)}`,
    ];
    for (const secret of bad) {
      let message = '';
      try {
        readConfig({ SONDE_EVENTS_WEBHOOK_URL: url, SONDE_EVENTS_WEBHOOK_SECRET: secret });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, secret).toMatch(/^SONDE_EVENTS_WEBHOOK_SECRET is not a valid signing secret: it must be whsec_ followed by the base64 of 24 to 64 random bytes/);
      expect(message).not.toContain('\n');
      if (secret.length > 'whsec_'.length) expect(message).not.toContain(secret.slice('whsec_'.length));
    }
  });

  it(`takes a secret of exactly ${EVENTS_SECRET_MIN_BYTES} and of exactly ${EVENTS_SECRET_MAX_BYTES} bytes, as the library reads it`, () => {
    for (const bytes of [EVENTS_SECRET_MIN_BYTES, EVENTS_SECRET_MAX_BYTES]) {
      const secret = secretOf(bytes);
      const config = readConfig({ SONDE_EVENTS_WEBHOOK_URL: 'http://127.0.0.1:9/events', SONDE_EVENTS_WEBHOOK_SECRET: secret });
      expect(config.events?.secret).toBe(secret);
      expect(() => eventChannel(config.events!)).not.toThrow();
    }
  });
});
