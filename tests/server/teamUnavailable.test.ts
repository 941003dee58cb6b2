// @vitest-environment node
// The team's API when the database cannot be reached: 503 with Retry-After and `{ error }` from the app's
// one error mapping (server/http/middleware.ts answerError, server/db/unavailable.ts), never 500, on the
// session check, the queue and the sign-in ceremony; the server keeps running, and answers again once
// the database is back. And when it does not answer: 503 at the database's time (DATABASE_ANSWER_TIMEOUT_MS).
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { DeadlineError } from '../../server/db/deadline.ts';
import { isDatabaseUnavailable } from '../../server/db/unavailable.ts';
import { submissions, timeline } from '../../server/db/schema.ts';
import { DATABASE_ANSWER_TIMEOUT_MS, DATABASE_UNAVAILABLE_RETRY_AFTER_S } from '../../server/limits.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { freePort, until } from '../support/mailServer.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { submissionBody } from '../support/submissionBody.ts';
import { enrolledClient, type TeamAnswer } from '../support/teamClient.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';

let distDir: string;
const cleanup = cleanupAfterEach();
beforeAll(async () => {
  distDir = await writeStandInSite();
});

const unavailable = (answer: TeamAnswer, what: string) => {
  expect(answer.status, what).toBe(503);
  expect(answer.headers.get('retry-after'), what).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_S));
  expect(answer.json, what).toEqual({ error: 'The database is not available; try again in a few seconds' });
};

/**
 * A server on `database`, stopped after the test, and a member's client signed in to its team API, whose
 * queue answers 200 while the database is there.
 */
async function serverWithMember(database: Database, logger: Logger) {
  const server: RunningServer = await startTestServer(testConfig(distDir), logger, { database });
  cleanup.push(() => server.stop());
  const client = await enrolledClient(server, database.db);
  expect((await client.call('GET', '/requests')).status).toBe(200);
  return { server, client };
}

/**
 * A TCP proxy on 127.0.0.1 to `target` (PostgreSQL) that a test takes down (every connection cut, no
 * new one accepted: ECONNREFUSED) and brings back on the same port.
 */
async function tcpProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  const down = async () => {
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    server = undefined;
  };
  await up();
  return { port, up, down };
}

describe.each(testEngines())('the team API without its database on $name', (engine) => {
  it('answers 503 with Retry-After on the session check, the queue and the sign-in ceremony once the database is closed; the server keeps running', async () => {
    const lines: string[] = [];
    const database: Database = await engine.open();
    const capture = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const { server, client } = await serverWithMember(database, createLogger('warn', capture));

    await database.close();
    unavailable(await client.call('GET', '/requests'), 'GET /requests');
    unavailable(await client.call('GET', '/session'), 'GET /session');
    unavailable(await client.call('POST', '/signin/options'), 'POST /signin/options');
    unavailable(await client.call('POST', '/decisions', { body: { ids: ['00000000-0000-4000-8000-000000000000'], from: { '00000000-0000-4000-8000-000000000000': 'received' }, decision: 'spam' } }), 'POST /decisions');
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect(lines.some((line) => line.includes('unhandled error'))).toBe(false);
  });
});

describe.runIf(process.env.DATABASE_URL)('the team API while PostgreSQL is unreachable', () => {
  it('answers 503 with Retry-After while no connection can be made, and answers again once PostgreSQL is back', async () => {
    const engine = testEngines().find((e) => e.name === 'PostgreSQL')!;
    const owner = await engine.open(); // the test's database, dropped at the end
    cleanup.push(() => owner.close());
    const url = new URL((engine.location() as { url: string }).url);
    const proxy = await tcpProxy({ host: url.hostname, port: Number(url.port) });
    cleanup.push(proxy.down);
    url.host = `127.0.0.1:${proxy.port}`;
    const database = await openDatabase({ url: url.toString() });
    const { client } = await serverWithMember(database, createLogger('silent'));

    await proxy.down();
    unavailable(await client.call('GET', '/requests'), 'GET /requests');
    unavailable(await client.call('POST', '/signin/options'), 'POST /signin/options');

    await proxy.up();
    expect((await client.call('GET', '/requests')).status).toBe(200);
    expect((await client.call('POST', '/signin/options')).status).toBe(200);
  }, 30_000);
});

// A database that does not answer: on PostgreSQL another session holds a lock the call needs; on PGlite (one
// session, in this process) a transaction holds it, and every other statement waits for its end.
describe.each(testEngines())('the team API while its database on $name does not answer', (engine) => {
  it(`answers each call past the database's time (DATABASE_ANSWER_TIMEOUT_MS, ${DATABASE_ANSWER_TIMEOUT_MS} ms) with 503 and Retry-After: 1, and not a call within it; what goes on past it is done once, and logged as it should be`, async () => {
    const database = await engine.open();
    cleanup.push(() => database.close());
    const deadlineMs = 1_000;
    const lines: string[] = [];
    const capture = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const server = await startTestServer(testConfig(distDir), createLogger('warn', capture), {
      database,
      timeouts: { requestMs: 10_000, headersMs: 10_000, databaseMs: deadlineMs },
    });
    cleanup.push(() => server.stop());
    const client = await enrolledClient(server, database.db);
    const email = 'held@example.com';
    const id = await storeSubmission(database.db, submissionBody({ workEmail: email }));
    const location = engine.location();
    const other = 'url' in location ? postgres(location.url, { max: 1, onnotice: () => {} }) : undefined;
    if (other) cleanup.push(() => other.end());
    /**
     * Holds `table` (PostgreSQL; on PGlite every statement) for `ms`; resolves once it is held, with when it
     * is released (in an object: an async function would wait for a promise it returned).
     */
    const hold = async (table: 'submissions' | 'team_sessions', ms: number) => {
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const wait = () => new Promise((resolve) => setTimeout(resolve, ms));
      const work = other
        ? other.begin(async (tx) => {
            await tx.unsafe(`lock table ${table} in access exclusive mode`);
            holding();
            await wait();
          })
        : database.db.transaction(async (tx) => {
            await tx.select({ id: submissions.id }).from(submissions).limit(1);
            holding();
            await wait();
          });
      await held;
      return { released: work.then(() => Date.now()) };
    };
    const spam = () => client.call('POST', '/decisions', { body: { decision: 'spam', ids: [id], from: { [id]: 'received' } } });
    const answeredTooSlow = (answer: TeamAnswer, what: string) => {
      expect(answer.status, what).toBe(503);
      expect(answer.headers.get('retry-after'), what).toBe('1');
      expect(answer.json, what).toEqual({ error: 'The database did not answer in time; try again in a second' });
    };

    // answered within its time (the queue read once before, so that its first read's cost is not counted)
    expect((await client.call('GET', '/requests')).status).toBe(200);
    let { released } = await hold('submissions', deadlineMs / 3);
    expect((await client.call('GET', '/requests')).status).toBe(200);
    await released;

    // not within it: a read and a decision get 503 at the deadline, while the database is still held
    ({ released } = await hold('submissions', deadlineMs * 4));
    const started = Date.now();
    const answers = await Promise.all([client.call('GET', '/requests'), spam()]);
    const answeredAt = Date.now();
    answeredTooSlow(answers[0], 'GET /requests');
    answeredTooSlow(answers[1], 'POST /decisions');
    expect(answeredAt - started).toBeGreaterThanOrEqual(deadlineMs - 50); // a timer never fires early
    expect(answeredAt).toBeLessThan(await released);

    // Once the database answers, each call goes on from where it waited. On PostgreSQL (only the requests
    // locked) the decision had passed the session check and read its body: it is made then. On PGlite
    // (every statement waited, the session check's too) its body was never read before the answer went, and
    // it ends there. The member's retry then is refused as made already, or makes it: once either way.
    const stateOf = async () => (await database.db.select({ state: submissions.reviewState }).from(submissions).where(eq(submissions.id, id)))[0]?.state;
    const made = async () => (await database.db.select().from(timeline).where(eq(timeline.submissionId, id))).filter((row) => row.action === 'spam');
    if (engine.name === 'PostgreSQL') await until(async () => (await made()).length === 1, 5_000);
    const retried = await spam();
    expect(retried.status).toBe(engine.name === 'PostgreSQL' ? 409 : 200);
    expect(await made()).toHaveLength(1);
    expect(await stateOf()).toBe('spam');
    expect((await client.call('GET', '/requests')).status).toBe(200);

    // a sign-out held at its session check: 503, then it ends the session once the database answers, and
    // the cookie it clears then (a header set after the answer went) is no error
    ({ released } = await hold('team_sessions', deadlineMs * 4));
    answeredTooSlow(await client.call('POST', '/signout'), 'POST /signout');
    await released;
    await until(async () => (await client.call('GET', '/session')).status === 204, 5_000);

    // logged at warn, one line per call answered 503, with no requester's data, and nothing else
    expect(lines.filter((line) => line.includes('the database did not answer in time'))).toHaveLength(3);
    expect(lines.join('')).not.toContain(email);
    expect(lines.filter((line) => !line.includes('the database did not answer in time'))).toEqual([]);
  }, 45_000);
});

describe('isDatabaseUnavailable', () => {
  const coded = (code: string) => Object.assign(new Error('x'), { code });
  it.each([
    ['a refused connection', coded('ECONNREFUSED'), true],
    ["postgres.js's ended pool, wrapped by Drizzle", new Error('Failed query', { cause: coded('CONNECTION_ENDED') }), true],
    ['a server shutting down (57P01)', coded('57P01'), true],
    ['a connection failure (08006)', coded('08006'), true],
    ['too many connections (53300)', coded('53300'), true],
    ['a closed PGlite', new Error('PGlite is closed'), true],
    ['no answer in time', new DeadlineError('no answer within 5000 ms'), true],
    ['a unique violation (23505)', coded('23505'), false],
    ['a data exception (22P02)', coded('22P02'), false],
    ['any other error', new Error('boom'), false],
    ['not an Error', 'ECONNREFUSED', false],
  ])('%s', (_what, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
