// @vitest-environment node
// The outbox's leases: short, renewed while a delivery is in flight, so that a slow delivery is never taken
// over while its sender lives, and the deliveries of a sender that died are claimed again within a lease.
// Two senders on one database stand for two server instances; a claim nobody renews stands for a dead one.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rowsOf, type Database } from '../../server/db/database.ts';
import { claimDeliveries } from '../../server/db/deliveries.ts';
import { deliveries } from '../../server/db/schema.ts';
import { DELIVERY_HEARTBEAT_MS, DELIVERY_LEASE_MS, DELIVERY_POLL_INTERVAL_MS } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import { startOutbox } from '../../server/outbox/sender.ts';
import { webhookChannel } from '../../server/outbox/webhook.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { until } from '../support/mailServer.ts';
import { submissionBody } from '../support/submissionBody.ts';

/** A poll interval no test outlasts, in ms (one day): the sender then claims only when kicked or when a delivery ends. */
const NO_POLL_DURING_THE_TEST_MS = 24 * 60 * 60_000;

/**
 * A webhook receiver on a free port: answers each POST `answerAfterMs` after it has it whole, or never
 * (null: held until the test ends). `received` lists each POST's `X-Sonde-Delivery` and when it came
 * (`performance.now()`); `cutOff` the deliveries whose sender closed the connection before an answer.
 */
async function receiver(answerAfterMs: number | null) {
  const received: Array<{ delivery: string; at: number }> = [];
  const cutOff: string[] = [];
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const delivery = String(req.headers['x-sonde-delivery']);
    req.resume();
    req.on('end', () => {
      received.push({ delivery, at: performance.now() });
      if (answerAfterMs !== null) {
        setTimeout(() => res.end('ok'), answerAfterMs);
        return;
      }
      held.add(res);
      res.on('close', () => {
        if (!res.writableEnded) cutOff.push(delivery);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    cutOff,
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the lease and its heartbeat', () => {
  it('notice a dead sender within 60 s: its lease (30 s) runs out at most that long after its last renewal, and the next poll (1 s) claims the row', () => {
    expect(DELIVERY_LEASE_MS).toBe(30_000);
    expect(DELIVERY_LEASE_MS + DELIVERY_POLL_INTERVAL_MS).toBeLessThanOrEqual(60_000);
    // two renewals in a row may fail before the lease runs out
    expect(DELIVERY_HEARTBEAT_MS).toBe(10_000);
    expect(3 * DELIVERY_HEARTBEAT_MS).toBeLessThanOrEqual(DELIVERY_LEASE_MS);
  });
});

describe.each(testEngines())('delivery leases on $name', (engine) => {
  const cleanup = cleanupAfterEach();
  afterEach(() => {
    vi.useRealTimers();
  });

  async function setUp(answerAfterMs: number | null) {
    const database = await engine.open();
    const hook = await receiver(answerAfterMs);
    cleanup.push(() => database.close(), () => hook.close());
    await storeSubmission(database.db, submissionBody(), { announce: true });
    return { database, hook };
  }
  const start = (database: Database, url: string, options: { leaseMs?: number; heartbeatMs?: number; pollIntervalMs?: number } = {}) => {
    const sender = startOutbox({ db: database.db, channels: [webhookChannel(url)], logger: createLogger('silent'), firstRetryMs: 20, pollIntervalMs: 20, ...options });
    cleanup.push(() => sender.stop());
    return sender;
  };
  /** How long the row's lease has to run, in ms, by the database's clock (null: not leased). */
  const leaseLeftMs = async (database: Database) => {
    const [row] = rowsOf<{ left: number | string | null }>(
      await database.db.execute(sql`select extract(epoch from (locked_until - now())) * 1000 as "left" from ${deliveries}`),
    );
    return row!.left === null ? null : Number(row!.left);
  };
  const theRow = async (database: Database) => (await database.db.select().from(deliveries))[0]!;

  it('claims a delivery for DELIVERY_LEASE_MS and renews its lease DELIVERY_HEARTBEAT_MS later, not a millisecond before, while it is in flight', async () => {
    const { database, hook } = await setUp(null);
    // the heartbeat's timer only: the database's drivers keep their own
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    start(database, hook.url, { pollIntervalMs: NO_POLL_DURING_THE_TEST_MS }).kick();
    await until(() => hook.received.length === 1);
    const claimed = (await leaseLeftMs(database))!;
    expect(claimed).toBeGreaterThan(DELIVERY_LEASE_MS - 2_000);
    expect(claimed).toBeLessThanOrEqual(DELIVERY_LEASE_MS);
    const { lockedUntil } = await theRow(database);

    await vi.advanceTimersByTimeAsync(DELIVERY_HEARTBEAT_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a renewal would have been written by now
    expect((await theRow(database)).lockedUntil).toEqual(lockedUntil);

    await vi.advanceTimersByTimeAsync(1);
    await until(async () => (await theRow(database)).lockedUntil!.getTime() > lockedUntil!.getTime(), 3_000);
    expect(await leaseLeftMs(database)).toBeGreaterThan(DELIVERY_LEASE_MS - 2_000);
    expect(hook.received).toHaveLength(1);
    expect(hook.cutOff).toEqual([]);
  });

  // Answered within the webhook's 5 s time-out. The lease leaves a renewal 900 ms to be late: both senders
  // and the receiver share this process's event loop, which a loaded machine can stall for a few hundred ms.
  it('never lets a second sender take over a slow but live delivery: a webhook answered after 4 s, 4 times a 1 s lease, is POSTed once', async () => {
    const { database, hook } = await setUp(4_000);
    const lease = { leaseMs: 1_000, heartbeatMs: 100 };
    start(database, hook.url, lease).kick();
    await until(() => hook.received.length === 1);
    start(database, hook.url, lease); // polls every 20 ms
    await until(async () => (await theRow(database)).deliveredAt !== null, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a second POST would have come by now
    expect(hook.received).toHaveLength(1);
    expect(await theRow(database)).toMatchObject({ attempts: 1, lastError: null, lockedUntil: null });
  }, 30_000);

  it('claims again the delivery of a sender that died as soon as its lease has run out, not before', async () => {
    const { database, hook } = await setUp(0);
    const leaseMs = 400;
    const claimedAt = performance.now();
    // the sender that dies: it claims the row and never renews nor records anything
    expect(await claimDeliveries(database.db, 10, ['webhook'], leaseMs)).toHaveLength(1);
    start(database, hook.url, { leaseMs, heartbeatMs: 100 });
    await until(async () => (await theRow(database)).deliveredAt !== null, 5_000);
    expect(hook.received).toHaveLength(1);
    const waitedMs = hook.received[0]!.at - claimedAt;
    expect(waitedMs).toBeGreaterThanOrEqual(leaseMs);
    expect(waitedMs).toBeLessThan(leaseMs + 1_500);
    expect(await theRow(database)).toMatchObject({ attempts: 2, lastError: null });
  });

  it('stops a delivery whose lease another sender took, and records nothing over the new holder\'s', async () => {
    const { database, hook } = await setUp(null);
    start(database, hook.url, { leaseMs: 300, heartbeatMs: 100, pollIntervalMs: NO_POLL_DURING_THE_TEST_MS }).kick();
    await until(() => hook.received.length === 1);
    // as when this sender's renewals did not reach the database for a whole lease: another sender claims the row
    await database.db.update(deliveries).set({ lockedUntil: sql`now() - interval '1 millisecond'` });
    expect(await claimDeliveries(database.db, 10, ['webhook'], 60_000)).toHaveLength(1);
    await until(() => hook.cutOff.length === 1, 3_000); // its next renewal found the lease gone: the POST is cut
    await new Promise((resolve) => setTimeout(resolve, 300)); // its bookkeeping is done by now
    expect(await theRow(database)).toMatchObject({ attempts: 2, deliveredAt: null, failedAt: null, lastError: null });
    expect(await leaseLeftMs(database)).toBeGreaterThan(50_000); // still the new holder's lease
    expect(hook.received).toHaveLength(1);
  });
});
