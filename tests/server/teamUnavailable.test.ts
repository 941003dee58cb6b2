// @vitest-environment node
// The team's API when the database cannot be reached: 503 with Retry-After and `{ error }` from the app's
// one error mapping (server/http/middleware.ts answerError, server/db/unavailable.ts), never 500, on the
// session check, the queue and the sign-in ceremony; the server keeps running, and answers again once
// the database is back.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { DeadlineError } from '../../server/db/deadline.ts';
import { isDatabaseUnavailable } from '../../server/db/unavailable.ts';
import { DATABASE_UNAVAILABLE_RETRY_AFTER_S } from '../../server/limits.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { freePort } from '../support/mailServer.ts';
import { testEngines } from '../support/database.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
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
    unavailable(await client.call('POST', '/decisions', { body: { ids: ['00000000-0000-4000-8000-000000000000'], decision: 'spam' } }), 'POST /decisions');
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
