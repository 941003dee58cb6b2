// @vitest-environment node
import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { openDatabase } from '../../server/db/database.ts';
import { submissions } from '../../server/db/schema.ts';
import { migratedPgliteDir, testEngines } from '../support/database.ts';
import { serversKilledAfterEach } from '../support/process.ts';
import { writeStandInSite } from '../support/site.ts';
import { submissionBody } from '../support/submissionBody.ts';

let distDir: string;
beforeAll(async () => {
  distDir = await writeStandInSite();
});
const startServer = serversKilledAfterEach();
const spawn = (env: Record<string, string>) => startServer({ SONDE_DIST_DIR: distDir, SONDE_RATE_LIMIT_PER_MINUTE: '100000', ...env });

/** One body for every request of a run, so that a replay of any key carries the body it was first sent with. */
const sameBody = submissionBody();
const post = (url: string, key: string, body = sameBody) =>
  fetch(`${url}${SUBMISSIONS_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });

describe('a malformed setting', () => {
  it('stops the server before it starts, with one line naming the variable and exit 1', async () => {
    await expect(spawn({ SONDE_LOG_LEVEL: 'loud' })).rejects.toThrow(
      /^server exited \(1\) before listening: could not start: SONDE_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, not "loud"\n \[\]$/,
    );
    // logged as every start failure is, its value left out (the logger keeps quoted values out of messages)
    const refused = await spawn({ SONDE_TRUST_PROXY: 'yes' }).then(() => 'started', (error: Error) => error.message);
    expect(refused).toMatch(/^server exited \(1\) before listening: .*"msg":"could not start"/s);
    expect(refused).toContain('SONDE_TRUST_PROXY must be true or false');
  });
});

describe('SIGTERM', () => {
  it('stops accepting, finishes the request in flight (201, stored), closes the database and exits 0', async () => {
    const pgliteDir = await migratedPgliteDir();
    const server = await spawn({ SONDE_PGLITE_DIR: pgliteDir });
    const body = JSON.stringify(submissionBody());
    // A request whose body arrives over about a second: in flight when SIGTERM comes.
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}${SUBMISSIONS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'idempotency-key': 'in-flight' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 1_000);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow(); // no longer accepting

    const answer = await inFlight;
    expect(answer.status).toBe(201);
    const { id } = JSON.parse(answer.text) as { id: string };
    expect(await server.exited).toBe(0);
    expect(server.logs.map((line) => line.msg)).toEqual(expect.arrayContaining(['stopping: finishing in-flight requests', 'stopped']));

    const database = await openDatabase({ pgliteDir }); // the directory is free again: PGlite closed it
    try {
      const rows = await database.db.select({ id: submissions.id }).from(submissions);
      expect(rows.map((row) => row.id)).toEqual([id]);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe.each(testEngines())('kill -9 during a load on $name', (engine) => {
  it('loses no acknowledged submission, and stores none that was not sent', async () => {
    let env: Record<string, string>;
    let readBack: () => Promise<Array<{ id: string; idempotencyKey: string | null }>>;
    if (engine.name === 'PGlite') {
      const pgliteDir = await migratedPgliteDir();
      env = { SONDE_PGLITE_DIR: pgliteDir };
      readBack = async () => {
        const database = await openDatabase({ pgliteDir });
        try {
          return await database.db.select({ id: submissions.id, idempotencyKey: submissions.idempotencyKey }).from(submissions);
        } finally {
          await database.close();
        }
      };
    } else {
      const database = await engine.open();
      const location = engine.location() as { url: string };
      env = { DATABASE_URL: location.url };
      readBack = async () => {
        try {
          return await database.db.select({ id: submissions.id, idempotencyKey: submissions.idempotencyKey }).from(submissions);
        } finally {
          await database.close();
        }
      };
    }

    const server = await spawn(env);
    const sent = new Set<string>();
    const acknowledged = new Map<string, string>(); // key → id
    let running = true;
    const client = async (n: number) => {
      for (let i = 0; running; i += 1) {
        const key = `client${n}-${i}`;
        sent.add(key);
        try {
          const response = await post(server.url, key);
          if (response.status === 201) acknowledged.set(key, ((await response.json()) as { id: string }).id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 8 }, (_, n) => client(n)));
    // Killed in the middle of the load: once more than 20 are acknowledged (not after a fixed time, which a
    // slow machine's first second may not fill), then 200 ms more while the clients keep sending.
    for (const started = Date.now(); acknowledged.size <= 20 && Date.now() - started < 20_000; ) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGKILL');
    running = false;
    await clients;
    expect(await server.exited).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThan(20);

    // Restart on the same data: it starts (recovers), answers, and replays an acknowledged key with its id.
    const restarted = await spawn(env);
    const [someKey, someId] = [...acknowledged][0]!;
    const replay = await post(restarted.url, someKey);
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual({ ok: true, id: someId });
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);

    const rows = await readBack();
    const stored = new Map(rows.map((row) => [row.idempotencyKey!, row.id]));
    for (const [key, id] of acknowledged) expect(stored.get(key), key).toBe(id);
    for (const key of stored.keys()) expect(sent.has(key), key).toBe(true);
    console.info(`[crash] ${engine.name}: ${acknowledged.size} acknowledged, ${rows.length} stored, all acknowledged found`);
  }, 90_000);
});
