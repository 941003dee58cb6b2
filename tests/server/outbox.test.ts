// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { deliveries } from '../../server/db/schema.ts';
import { DELIVERY_CONCURRENCY, DELIVERY_FIRST_RETRY_MS, DELIVERY_MAX_RETRY_MS, WEBHOOK_DELIVERY_DEADLINE_MS } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import { retryDelayMs } from '../../server/outbox/failures.ts';
import type { Channel } from '../../server/outbox/channel.ts';
import { startOutbox } from '../../server/outbox/sender.ts';
import { escapeSlackText, announcementText, webhookChannel } from '../../server/outbox/webhook.ts';
import { acceptSubmission } from '../../server/db/submissions.ts';
import { migratedPgliteDir, testEngines } from '../support/database.ts';
import { until } from '../support/mailServer.ts';
import { serversKilledAfterEach } from '../support/process.ts';
import { writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';

/** A poll interval no test outlasts, in ms (one day): the sender then claims only when kicked or when a delivery ends. */
const NO_POLL_DURING_THE_TEST_MS = 24 * 60 * 60_000;

/** A webhook receiver on a free port: answers each POST with the next of `statuses` (then 200). */
async function receiver(statuses: number[] = [], delayMs = 0) {
  const received: Array<{ delivery: string; body: unknown }> = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ delivery: String(req.headers['x-sonde-delivery']), body: JSON.parse(text) });
      setTimeout(() => {
        res.writeHead(statuses.shift() ?? 200);
        res.end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}


describe('the announcement and its back-off', () => {
  it('announces an invite request with name, role, company and volume, and a privacy request with its types and due date', () => {
    expect(announcementText('invite', submissionBody({ fullName: 'Ada Lovelace', roleTitle: 'CTO', companyName: 'Analytical Ltd', estimatedMonthlyQueries: '50M' }).data, null)).toBe(
      'New invite request: Ada Lovelace (CTO, Analytical Ltd) — 50M queries/month',
    );
    expect(announcementText('privacy', privacyRequestBody().data, new Date('2027-01-06T10:00:00Z'))).toBe('Privacy request (Delete, Access/Know) — due 2027-01-06');
  });

  it('makes every piece of visitor text inert in Slack: no mention, command or disguised link can be formed', () => {
    const hostile = ['<!channel>', '<!here>', '<@U012345>', '<https://evil.example|Sonde admin login>', '<!subteam^S123>', 'A & B'];
    const text = announcementText(
      'invite',
      submissionBody({ fullName: hostile[0], roleTitle: hostile[1], companyName: hostile[2], estimatedMonthlyQueries: hostile[3] }).data,
      null,
    );
    expect(text).toBe(
      'New invite request: &lt;!channel&gt; (&lt;!here&gt;, &lt;@U012345&gt;) — &lt;https://evil.example|Sonde admin login&gt; queries/month',
    );
    expect(text).not.toMatch(/[<>]/);
    const privacy = privacyRequestBody().data;
    privacy.useCaseDescription = 'CCPA Privacy Rights Request\nRequest types: <!channel> & <@U1>\nDetails: None provided';
    expect(announcementText('privacy', privacy, new Date('2027-01-06T10:00:00Z'))).toBe('Privacy request (&lt;!channel&gt; &amp; &lt;@U1&gt;) — due 2027-01-06');
    for (const piece of hostile) expect(escapeSlackText(piece)).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
  });

  it('waits about 1 s after the first failure, doubling, capped at 1 hour, with ±20 % jitter', () => {
    const middle = () => 0.5;
    expect(retryDelayMs(1, middle)).toBe(DELIVERY_FIRST_RETRY_MS);
    expect(retryDelayMs(2, middle)).toBe(2 * DELIVERY_FIRST_RETRY_MS);
    expect(retryDelayMs(3, middle)).toBe(4 * DELIVERY_FIRST_RETRY_MS);
    expect(retryDelayMs(12, middle)).toBe(2_048 * DELIVERY_FIRST_RETRY_MS); // 34 min
    expect(retryDelayMs(13, middle)).toBe(DELIVERY_MAX_RETRY_MS); // 68 min, capped at 1 h
    expect(retryDelayMs(40, middle)).toBe(DELIVERY_MAX_RETRY_MS);
    expect(retryDelayMs(1, () => 0)).toBe(800);
    expect(retryDelayMs(1, () => 0.999_999)).toBe(1200);
  });
});

describe.each(testEngines())('the outbox on $name', (engine) => {
  const cleanup = cleanupAfterEach();

  async function setUp(statuses: number[] = [], delayMs = 0) {
    const database = await engine.open();
    const hook = await receiver(statuses, delayMs);
    cleanup.push(() => database.close(), () => hook.close());
    return { database, hook };
  }
  const store = async (database: Database, body = submissionBody()) => {
    const outcome = await acceptSubmission(database.db, { body, idempotencyKey: null, clientIp: `198.51.100.${Math.floor(Math.random() * 250)}`, limitPerWindow: 1000, windowMs: 60_000, announce: true });
    if (outcome.status !== 'stored') throw new Error(outcome.status);
    return outcome.id;
  };
  const start = (database: Database, url: string, logger = createLogger('silent')) => {
    const sender = startOutbox({ db: database.db, channels: [webhookChannel(url)], logger, firstRetryMs: 20, pollIntervalMs: 20 });
    cleanup.push(() => sender.stop());
    return sender;
  };

  it('a receiver answering 500 three times then 200 gets exactly one accepted delivery, always with the same X-Sonde-Delivery', async () => {
    const { database, hook } = await setUp([500, 500, 500]);
    const id = await store(database);
    start(database, hook.url);
    await until(async () => (await database.db.select().from(deliveries))[0]?.deliveredAt !== null);
    expect(hook.received).toHaveLength(4);
    const [row] = await database.db.select().from(deliveries);
    expect(new Set(hook.received.map((r) => r.delivery))).toEqual(new Set([row!.id]));
    expect(hook.received[3]!.body).toEqual({
      text: 'New invite request: Ada Lovelace (CTO, Analytical Ltd) — 50M queries/month',
      mrkdwn: false,
      unfurl_links: false,
      unfurl_media: false,
      submissionId: id,
      kind: 'invite',
    });
    expect(row).toMatchObject({ attempts: 4, failedAt: null, lastError: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.received).toHaveLength(4); // nothing more once delivered
  });

  it('gives a webhook delivery WEBHOOK_DELIVERY_DEADLINE_MS: one that answers within it is delivered, one that never answers is cut there and retried', async () => {
    expect(WEBHOOK_DELIVERY_DEADLINE_MS).toBe(15_000);
    const database = await engine.open();
    cleanup.push(() => database.close());
    await store(database);
    const deadlineMs = 400;
    let attempts = 0;
    const channel: Channel = {
      name: 'webhook',
      deadlineMs: WEBHOOK_DELIVERY_DEADLINE_MS,
      // the first attempt never answers; the second answers in half the deadline
      deliver: () => (++attempts === 1 ? new Promise<void>(() => {}) : new Promise<void>((resolve) => setTimeout(resolve, deadlineMs / 2))),
    };
    const sender = startOutbox({ db: database.db, channels: [channel], logger: createLogger('silent'), firstRetryMs: 20, pollIntervalMs: 20, deliveryDeadlineMs: deadlineMs });
    cleanup.push(() => sender.stop());
    await until(async () => (await database.db.select().from(deliveries))[0]?.lastError != null);
    expect((await database.db.select().from(deliveries))[0]).toMatchObject({ deliveredAt: null, lastError: `no answer within ${deadlineMs} ms` });
    await until(async () => (await database.db.select().from(deliveries))[0]?.deliveredAt != null);
    expect((await database.db.select().from(deliveries))[0]).toMatchObject({ attempts: 2, lastError: null });
  });

  it(`sends DELIVERY_CONCURRENCY (${DELIVERY_CONCURRENCY}) at once, not one more, and takes the next due row as soon as one place frees`, async () => {
    const database = await engine.open();
    cleanup.push(() => database.close());
    const waiting: Array<() => void> = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => waiting.push(() => res.end('ok')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    for (let i = 0; i < DELIVERY_CONCURRENCY + 2; i += 1) await store(database);
    const sender = startOutbox({ db: database.db, channels: [webhookChannel(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)], logger: createLogger('silent'), pollIntervalMs: 20 });
    cleanup.push(async () => {
      for (const answer of waiting.splice(0)) answer();
      await sender.stop();
    });
    await until(() => waiting.length === DELIVERY_CONCURRENCY);
    await new Promise((resolve) => setTimeout(resolve, 200)); // several polls: nothing more is sent
    expect(waiting).toHaveLength(DELIVERY_CONCURRENCY);
    waiting.shift()!(); // one answered: its place goes to the next due row, the others still held
    await until(() => waiting.length === DELIVERY_CONCURRENCY, 3_000);
  });

  it('gives up on a delivery still failing 3 days after its request, with an error logged', async () => {
    const { database, hook } = await setUp([500, 500, 500, 500]);
    await store(database);
    await database.db.update(deliveries).set({ createdAt: sql`now() - interval '3 days'` });
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    start(database, hook.url, logger);
    await until(async () => (await database.db.select().from(deliveries))[0]?.failedAt !== null);
    expect(hook.received).toHaveLength(1);
    expect((await database.db.select().from(deliveries))[0]).toMatchObject({ deliveredAt: null, lastError: 'HTTP 500' });
    expect(lines.some((line) => line.includes('"level":50') && line.includes('delivery given up after 3 days'))).toBe(true);
  });

  // How fast a backlog drains is the machine's (DESIGN.md §4: speed is measured by benchmarks, not by tests);
  // what this checks is that one kick drains it all: with no poll during the test, only the sender's own
  // claiming again as places free up can send the 1,000, and never more than DELIVERY_CONCURRENCY at once.
  it('drains a backlog of 1,000 due deliveries from one kick, without a poll, with at most DELIVERY_CONCURRENCY sends at once', async () => {
    const database = await engine.open();
    cleanup.push(() => database.close());
    let open = 0;
    let mostAtOnce = 0;
    const received = new Set<string>();
    const server = createServer((req, res) => {
      open += 1;
      mostAtOnce = Math.max(mostAtOnce, open);
      received.add(String(req.headers['x-sonde-delivery']));
      req.resume();
      req.on('end', () => {
        open -= 1;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    // 1,000 stored requests with their deliveries due, written in one statement
    await database.db.execute(sql`
      with stored as (
        insert into submissions (kind, review_state, email, mailbox, client_key, body_sha256, body)
        select 'invite', 'received', 'ada' || i || '@example.com', 'ada' || i || '@example.com', 'k' || i, 's' || i, ${JSON.stringify(submissionBody())}::jsonb
        from generate_series(1, 1000) as i
        returning id
      )
      insert into deliveries (submission_id) select id from stored`);
    const sender = startOutbox({
      db: database.db,
      channels: [webhookChannel(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)],
      logger: createLogger('silent'),
      pollIntervalMs: NO_POLL_DURING_THE_TEST_MS,
    });
    cleanup.push(() => sender.stop());
    sender.kick();
    // waits as long as a slow machine may need (a hang fails here), not a speed
    await until(() => received.size === 1000, 100_000);
    await until(async () => (await database.db.select().from(deliveries)).every((d) => d.deliveredAt !== null), 10_000);
    expect(mostAtOnce).toBeLessThanOrEqual(DELIVERY_CONCURRENCY);
  }, 120_000);

  // PGlite is one process per directory: the shared case is PostgreSQL's (skipped, not passed, on PGlite)
  it.runIf(engine.name === 'PostgreSQL')('two senders on one database never send the same delivery twice', async () => {
    const { database, hook } = await setUp([], 30);
    const ids = [];
    for (let i = 0; i < 30; i += 1) ids.push(await store(database));
    const other = await openDatabase(engine.location());
    cleanup.push(() => other.close());
    const one = start(database, hook.url);
    const two = start(other, hook.url);
    await Promise.all([one.runOnce(), two.runOnce(), one.runOnce(), two.runOnce()]);
    await until(async () => (await database.db.select().from(deliveries)).every((d) => d.deliveredAt !== null));
    const deliveryIds = hook.received.map((r) => r.delivery);
    expect(deliveryIds).toHaveLength(30);
    expect(new Set(deliveryIds).size).toBe(30);
  });
});

describe('the server announces what it stores', () => {
  const startServer = serversKilledAfterEach();

  it('a receiver that is down while the server restarts gets the delivery when it comes back', async () => {
    const distDir = await writeStandInSite();
    const pgliteDir = await migratedPgliteDir();
    const hook = await receiver();
    const url = hook.url;
    await hook.close(); // down: nothing listens on its port
    const env = { SONDE_DIST_DIR: distDir, SONDE_PGLITE_DIR: pgliteDir, SONDE_ANNOUNCE_WEBHOOK_URL: url };
    let server = await startServer(env);
    const response = await fetch(`${server.url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(privacyRequestBody()),
    });
    const { id } = (await response.json()) as { id: string };
    await until(() => server.logs.some((line) => line.msg === 'not delivered; will retry' && line.channel === 'webhook'));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // the receiver comes back on the same port, then the server
    const back = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        received.push({ delivery: String(req.headers['x-sonde-delivery']), body: JSON.parse(text) as { submissionId: string; text: string } });
        res.end();
      });
    });
    const received: Array<{ delivery: string; body: { submissionId: string; text: string } }> = [];
    await new Promise<void>((resolve) => back.listen(hook.port, '127.0.0.1', resolve));
    try {
      server = await startServer(env);
      await until(() => received.length > 0);
      expect(received).toHaveLength(1);
      expect(received[0]!.body.submissionId).toBe(id);
      expect(received[0]!.body.text).toMatch(/^Privacy request \(Delete, Access\/Know\) — due \d{4}-\d{2}-\d{2}$/);
    } finally {
      await new Promise<void>((resolve) => back.close(() => resolve()));
    }
  }, 60_000);
});
