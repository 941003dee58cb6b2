// @vitest-environment node
// An instance killed with kill -9 while it holds deliveries: another instance on the same PostgreSQL, or
// the restarted server on the same PGlite directory, sends every one of them within 60 s of the death
// (the lease, DELIVERY_LEASE_MS, runs out at most 30 s after the dead holder's last renewal), each at
// most twice and always with the same Message-ID. Real server processes and real SMTP peers.
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { deliveries } from '../../server/db/schema.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';
import { migratedPgliteDir, testEngines } from '../support/database.ts';
import { freePort, smtpServer, until, type Received } from '../support/mailServer.ts';
import { serversKilledAfterEach, type ServerProcess } from '../support/process.ts';
import { writeStandInSite } from '../support/site.ts';
import { submissionBody } from '../support/submissionBody.ts';

/** The bound: a dead holder's deliveries are sent by another within this, in ms. */
const TAKEN_BACK_WITHIN_MS = 60_000;
/** Requests posted to the instance that is killed: each one's acknowledgment is held by its SMTP peer. */
const HELD = 6;

let distDir: string;
beforeAll(async () => {
  distDir = await writeStandInSite();
});
const cleanup = cleanupAfterEach();
const startServer = serversKilledAfterEach();

/** An SMTP peer on a free port; with `holding()` true it has each message whole but holds its reply to DATA. */
async function smtpPeer(holding: () => boolean = () => false) {
  const port = await freePort();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const smtp = await smtpServer(port, { holdData: () => (holding() ? held : undefined) });
  cleanup.push(async () => {
    release();
    await smtp.close();
  });
  return { smtpUrl: `smtp://127.0.0.1:${port}`, received: smtp.received };
}

/** Posts one invite request per address to `server`; each gets its acknowledgment (one a mailbox). */
async function postInvites(server: ServerProcess, tag: string) {
  for (let i = 0; i < HELD; i += 1) {
    const response = await fetch(`${server.url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(submissionBody({ workEmail: `${tag}${i}@example.com` })),
    });
    expect(response.status).toBe(201);
  }
}

/** How many copies of each Message-ID the peers received. */
function copiesByMessageId(...peers: Received[][]): Map<string, number> {
  const copies = new Map<string, number>();
  for (const message of peers.flat()) copies.set(message.mail.messageId!, (copies.get(message.mail.messageId!) ?? 0) + 1);
  return copies;
}

describe.skipIf(!process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  it('sends every delivery the killed instance held within 60 s of its death, each at most twice, with the same Message-ID', async () => {
    const engine = testEngines().find((e) => e.name === 'PostgreSQL')!;
    const database = await engine.open();
    cleanup.push(() => database.close());
    const { url } = engine.location() as { url: string };
    const peerA = await smtpPeer(() => true); // A's mail is taken whole, its reply never comes
    const peerB = await smtpPeer();
    const env = { SONDE_DIST_DIR: distDir, DATABASE_URL: url };
    const a = await startServer({ ...env, SONDE_SMTP_URL: peerA.smtpUrl });
    await postInvites(a, 'held');
    await until(() => peerA.received.length === HELD, 30_000); // A holds the lease of each
    const b = await startServer({ ...env, SONDE_SMTP_URL: peerB.smtpUrl });
    expect(b.url).not.toBe(a.url);

    const killedAt = performance.now();
    a.child.kill('SIGKILL');
    await a.exited;
    await until(() => peerB.received.length >= HELD, TAKEN_BACK_WITHIN_MS);
    expect(performance.now() - killedAt).toBeLessThan(TAKEN_BACK_WITHIN_MS);

    const rows = await database.db.select().from(deliveries);
    await until(async () => (await database.db.select().from(deliveries)).every((row) => row.deliveredAt !== null), 10_000);
    const copies = copiesByMessageId(peerA.received, peerB.received);
    expect([...copies.keys()].sort()).toEqual(rows.map((row) => `<${row.id}@sonde.dev>`).sort());
    // each was taken whole by A's peer, then sent again by B as the same message: twice, never more
    expect([...copies.values()]).toEqual(rows.map(() => 2));
    expect(peerB.received.map((m) => m.mail.messageId).sort()).toEqual(peerA.received.map((m) => m.mail.messageId).sort());
  }, 150_000);
});

describe('a server restarted on the same PGlite directory', () => {
  it('sends every delivery the killed process held within 60 s of its death, each at most twice, with the same Message-ID', async () => {
    const pgliteDir = await migratedPgliteDir();
    let holding = true; // the first process's mail is taken whole, its reply never comes
    const peer = await smtpPeer(() => holding);
    const env = { SONDE_DIST_DIR: distDir, SONDE_PGLITE_DIR: pgliteDir, SONDE_SMTP_URL: peer.smtpUrl };
    const first = await startServer(env);
    await postInvites(first, 'held');
    await until(() => peer.received.length === HELD, 30_000);

    const killedAt = performance.now();
    first.child.kill('SIGKILL');
    await first.exited;
    holding = false;
    await startServer(env); // waits for the dead process's directory lock to go stale
    await until(() => peer.received.length >= 2 * HELD, TAKEN_BACK_WITHIN_MS);
    expect(performance.now() - killedAt).toBeLessThan(TAKEN_BACK_WITHIN_MS);

    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a third copy would have come by now
    const copies = copiesByMessageId(peer.received);
    expect(copies.size).toBe(HELD);
    expect([...copies.values()]).toEqual(Array.from({ length: HELD }, () => 2));
  }, 150_000);
});
