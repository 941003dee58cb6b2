// @vitest-environment node
// A slow SMTP peer, a crash between the peer's acceptance and the bookkeeping, and a slow delivery
// beside a fast one: each message is sent once (or, after a crash, once more as the same message), with
// one verification token, and no delivery waits for another. Against a real SMTP server (smtp-server).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import { openDatabase } from '../../server/db/database.ts';
import { deliveries, privacyVerifications } from '../../server/db/schema.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../support/server.ts';
import { mailChannel } from '../../server/outbox/mail.ts';
import { startOutbox } from '../../server/outbox/sender.ts';
import { sha256Hex } from '../../server/db/mailbox.ts';
import { issueVerificationToken } from '../../server/db/verificationLinks.ts';
import { migratedPgliteDir, storeSubmission, testEngines } from '../support/database.ts';
import { freePort, smtpServer, until, type Received, type SmtpBehaviour } from '../support/mailServer.ts';
import { serversKilledAfterEach, type ServerProcess } from '../support/process.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';

let distDir: string;
const cleanup = cleanupAfterEach();
beforeAll(async () => {
  distDir = await writeStandInSite();
});

async function start(smtpPort: number): Promise<RunningServer> {
  const config = testConfig(distDir);
  const server = await startTestServer({ ...config, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}` } }, createLogger('silent'));
  cleanup.push(() => server.stop());
  return server;
}

/** An SMTP peer on a free port that behaves as `behaviour` says, and a server that sends its mail there; both closed after the test. */
async function serverMailingTo(behaviour: SmtpBehaviour): Promise<{ smtp: Awaited<ReturnType<typeof smtpServer>>; server: RunningServer }> {
  const port = await freePort();
  const smtp = await smtpServer(port, behaviour);
  cleanup.push(smtp.close);
  return { smtp, server: await start(port) };
}

async function post(url: string, body: SubmissionBody): Promise<string> {
  const response = await fetch(`${url}${SUBMISSIONS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The verification token in a received confirmation's link. */
const tokenIn = (message: Received) => /#token=([A-Za-z0-9_-]{43})/.exec(message.mail.text ?? '')?.[1];

const privacyTo = (email: string) => {
  const body = privacyRequestBody();
  body.data.workEmail = email;
  return body;
};

describe('a slow SMTP peer', () => {
  it('whose reply to DATA comes 16 s late (past the old 15 s deadline; RFC 5321 allows 10 min) gets one copy with one token, and the row is marked delivered', async () => {
    const { smtp, server } = await serverMailingTo({ dataDelayMs: 16_000 });
    const id = await post(server.url, privacyTo('grace@example.com'));
    const row = async () => (await server.database.db.select().from(deliveries).where(sql`${deliveries.message} = 'privacy-confirmation'`))[0];
    await until(async () => (await row())?.deliveredAt != null, 40_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a retry would have started by now
    expect(smtp.received).toHaveLength(1);
    const tokens = await server.database.db.select().from(privacyVerifications).where(sql`${privacyVerifications.requestId} = ${id}`);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.tokenSha256).toBe(sha256Hex(tokenIn(smtp.received[0]!)!));
    expect(await row()).toMatchObject({ attempts: 1, rendered: null, lastError: null });
  }, 60_000);

  it('that answers 451 once gets the same message again: one token, one link, one Message-ID', async () => {
    const { smtp, server } = await serverMailingTo({ tempFailures: 1 });
    const id = await post(server.url, privacyTo('grace@example.com'));
    await until(async () => (await server.database.db.select().from(deliveries))[0]?.deliveredAt != null);
    const [row] = await server.database.db.select().from(deliveries);
    expect(row).toMatchObject({ attempts: 2, rendered: null });
    expect(smtp.received).toHaveLength(1);
    const tokens = await server.database.db.select().from(privacyVerifications).where(sql`${privacyVerifications.requestId} = ${id}`);
    expect(tokens.map((t) => t.tokenSha256)).toEqual([sha256Hex(tokenIn(smtp.received[0]!)!)]);
    expect(smtp.received[0]!.mail.messageId).toBe(`<${row!.id}@sonde.dev>`);
  }, 30_000);

  it.each(testEngines())('that is slow at every reply is cut at the delivery deadline: the SMTP connection is closed, no copy got through ($name)', async (engine) => {
    const database = await engine.open();
    cleanup.push(() => database.close());
    const port = await freePort();
    const smtp = await smtpServer(port, { replyDelayMs: 600 }); // greeting, MAIL, RCPT, DATA: 2.4 s
    cleanup.push(smtp.close);
    await storeSubmission(database.db, submissionBody({ workEmail: 'ada@example.com' }), { mail: { requester: true, team: false } });
    const settings = { smtpUrl: `smtp://127.0.0.1:${port}`, emlDir: '/nonexistent', from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined };
    const channel = mailChannel(settings, () => 'https://sonde.dev', async () => ({}), (requestId) => issueVerificationToken(database.db, requestId));
    const outbox = startOutbox({ db: database.db, channels: [channel], logger: createLogger('silent'), deliveryDeadlineMs: 1_000, firstRetryMs: 60_000, pollIntervalMs: 60_000 });
    cleanup.push(() => outbox.stop());
    await outbox.runOnce();
    const [row] = await database.db.select().from(deliveries);
    expect(row).toMatchObject({ deliveredAt: null, lastError: 'no answer within 1000 ms' });
    expect(row!.rendered).toContain(`Message-ID: <${row!.id}@sonde.dev>`); // kept for the retry
    await until(() => smtp.sessions.length === 1 && smtp.sessions[0]!.closed, 3_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // past when the session would have ended
    expect(smtp.received).toHaveLength(0);
  }, 30_000);

  it('never holds back another delivery: a request sent while one mail waits on its DATA reply is delivered meanwhile', async () => {
    const port = await freePort();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const smtp = await smtpServer(port, { holdData: (message) => (message.to.includes('slow@example.com') ? held : undefined) });
    cleanup.push(async () => {
      release();
      await smtp.close();
    });
    const server = await start(port);
    await post(server.url, submissionBody({ workEmail: 'slow@example.com' }));
    await until(() => smtp.received.length === 1); // the slow one is in, its reply held
    await post(server.url, submissionBody({ workEmail: 'fast@example.com' }));
    await until(() => smtp.received.some((m) => m.to.includes('fast@example.com')), 10_000);
    release();
    await until(async () => (await server.database.db.select().from(deliveries)).every((d) => d.deliveredAt !== null));
    expect(smtp.received.map((m) => m.to[0])).toEqual(['slow@example.com', 'fast@example.com']);
  }, 30_000);
});

describe('a crash after the SMTP peer accepted a confirmation', () => {
  const startServer = serversKilledAfterEach();

  it('sends it again at most once, with the same Message-ID and the same verification link', async () => {
    let server: ServerProcess | undefined;
    const pgliteDir = await migratedPgliteDir();
    const port = await freePort();
    let first = true;
    const smtp = await smtpServer(port, {
      // the peer has the message whole; the server dies before it hears the reply and marks it delivered
      holdData: async () => {
        if (!first) return;
        first = false;
        server!.child.kill('SIGKILL');
        await server!.exited;
      },
    });
    cleanup.push(smtp.close);
    const env = { SONDE_DIST_DIR: distDir, SONDE_PGLITE_DIR: pgliteDir, SONDE_SMTP_URL: `smtp://127.0.0.1:${port}` };
    server = await startServer(env);
    const id = await post(server.url, privacyTo('grace@example.com'));
    await server.exited;
    expect(smtp.received).toHaveLength(1);

    // the crashed sender's lease runs out (DELIVERY_LEASE_MS after its last renewal: skipped here)
    const database = await openDatabase({ pgliteDir });
    await database.db.update(deliveries).set({ lockedUntil: sql`now() - interval '1 second'` });
    await database.close();

    server = await startServer(env);
    await until(() => smtp.received.length === 2, 20_000);
    server.child.kill('SIGTERM');
    await server.exited;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received).toHaveLength(2);
    const [before, after] = smtp.received;
    expect(after!.mail.messageId).toBe(before!.mail.messageId);
    expect(tokenIn(after!)).toBe(tokenIn(before!));
    expect(tokenIn(before!)).toBeDefined();
    const reopened = await openDatabase({ pgliteDir });
    try {
      const [row] = await reopened.db.select().from(deliveries).where(sql`${deliveries.message} = 'privacy-confirmation'`);
      expect(row).toMatchObject({ rendered: null });
      expect(row!.deliveredAt).not.toBeNull();
      const tokens = await reopened.db.select().from(privacyVerifications).where(sql`${privacyVerifications.requestId} = ${id}`);
      expect(tokens).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  }, 90_000);
});
