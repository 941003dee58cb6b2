// @vitest-environment node
// Attacks on the server as a hostile client would make them, over real sockets: each test reproduces
// one class of defect found when the server was attacked, and holds the fix.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { allowedOriginsOf, publicOriginOf, readConfig, type ServerConfig } from '../../server/config.ts';
import { MAX_CONCURRENT_SUBMISSIONS, MAX_SUBMISSIONS_PER_CLIENT } from '../../server/limits.ts';
import { createLogger, logLevelOf } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { submissionBody } from '../support/submissionBody.ts';

let distDir: string;
const running: RunningServer[] = [];
const sockets: Array<{ destroy(): void }> = [];
beforeAll(async () => {
  distDir = await writeStandInSite();
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function start(overrides: Partial<ServerConfig> = {}) {
  const server = await startTestServer(testConfig(distDir, overrides), createLogger('silent'));
  running.push(server);
  return server;
}

/** A raw HTTP/1.1 exchange (fetch would refuse TRACE and rewrite Host); resolves with the status and headers. */
function raw(server: RunningServer, head: string): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => {
      const [statusLine = '', ...lines] = text.split('\r\n\r\n')[0]!.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
    socket.on('error', reject);
  });
}

/**
 * Starts a submission from `localAddress` (any 127.x.y.z reaches a server on 127.0.0.1) that sends its
 * head and one byte of its body, then nothing: an unfinished upload. Resolves with the status once
 * answered.
 */
function unfinishedUpload(server: RunningServer, localAddress: string): Promise<number | 'closed'> {
  const body = JSON.stringify(submissionBody());
  return new Promise((resolve) => {
    const req = httpRequest(`${server.url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      localAddress,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    sockets.push(req);
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve('closed'));
    req.write(body[0]);
  });
}

/** A whole submission sent from `localAddress`. */
function submitFrom(server: RunningServer, localAddress: string): Promise<{ status: number; afterMs: number; retryAfter?: string }> {
  const body = JSON.stringify(submissionBody());
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      localAddress,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      res.resume();
      const retryAfter = res.headers['retry-after'];
      resolve({ status: res.statusCode ?? 0, afterMs: performance.now() - started, ...(retryAfter ? { retryAfter } : {}) });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('unfinished uploads', () => {
  it('64 unfinished uploads from one address leave a whole submission from another address answered 201 within 1 s', async () => {
    const server = await start();
    const attack = Array.from({ length: MAX_CONCURRENT_SUBMISSIONS }, () => unfinishedUpload(server, '127.0.0.2'));
    await settle();
    const visitor = await submitFrom(server, '127.0.0.1');
    expect(visitor.status).toBe(201);
    expect(visitor.afterMs).toBeLessThan(1_000);
    // The uploads past the per-address bound were refused at once; the others are still held open.
    sockets.splice(0).forEach((socket) => socket.destroy());
    const statuses = await Promise.all(attack);
    expect(statuses.filter((status) => status === 429)).toHaveLength(MAX_CONCURRENT_SUBMISSIONS - MAX_SUBMISSIONS_PER_CLIENT);
  });

  it(`lets one address send MAX_SUBMISSIONS_PER_CLIENT (${MAX_SUBMISSIONS_PER_CLIENT}) bodies at once, then 429 with Retry-After, and frees the place when one ends`, async () => {
    const server = await start();
    for (let i = 0; i < MAX_SUBMISSIONS_PER_CLIENT - 1; i += 1) void unfinishedUpload(server, '127.0.0.3');
    await settle();
    expect((await submitFrom(server, '127.0.0.3')).status).toBe(201); // the last place
    const last = unfinishedUpload(server, '127.0.0.3');
    await settle();
    const refused = await submitFrom(server, '127.0.0.3');
    expect(refused).toMatchObject({ status: 429, retryAfter: '1' });
    sockets.at(-1)!.destroy(); // one upload ends: its place is free
    expect(await last).toBe('closed');
    await settle();
    expect((await submitFrom(server, '127.0.0.3')).status).toBe(201);
  });
});

describe('the Host and X-Forwarded-* headers choose nothing', () => {
  it('answers a trailing slash with a relative Location, whatever the Host header says', async () => {
    const server = await start();
    const redirect = await raw(server, 'GET /privacy/?ref=mail HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/privacy?ref=mail');
    for (const path of ['//evil.example/', '///evil.example//']) {
      const answer = await raw(server, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer.status, path).toBe(301);
      expect(answer.headers.location, path).toBe('/evil.example'); // not the protocol-relative //evil.example
    }
    const backslash = await raw(server, 'GET /\\evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(backslash.headers.location ?? '').not.toMatch(/^(\/[/\\]|[a-z]+:)/i); // no redirect off the site
  });

  it('behind a proxy, X-Forwarded-Host and -Proto do not make a foreign origin the own one', async () => {
    const server = await start({ trustProxy: true, publicOrigin: 'https://sonde.dev' });
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}${SUBMISSIONS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(submissionBody()),
      });
    const forged = await post({ origin: 'https://evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(forged.status).toBe(403);
    expect((await post({ origin: 'https://sonde.dev', 'x-forwarded-host': 'evil.example' })).status).toBe(201);
  });

  it('with no public origin set, the own origin is http://localhost:PORT and the address it listens on may POST too', async () => {
    const server = await start();
    expect(server.publicOrigin).toBe(`http://localhost:${new URL(server.url).port}`);
    const post = (origin: string) =>
      fetch(`${server.url}${SUBMISSIONS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify(submissionBody()),
      });
    expect((await post(server.url)).status).toBe(201);
    expect((await post(server.publicOrigin)).status).toBe(201);
    expect((await post('http://evil.example')).status).toBe(403);
  });
});

describe('API answers', () => {
  const expectApiHeaders = (headers: Record<string, string> | Headers, what: string) => {
    const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
    expect(get('x-content-type-options'), what).toBe('nosniff');
    expect(get('cache-control'), what).toBe('no-store');
  };

  it('carry nosniff and no-store, whatever their status', async () => {
    const server = await start({ allowedOrigins: ['https://sonde.dev'] });
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${SUBMISSIONS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const answers = {
      201: await post(JSON.stringify(submissionBody())),
      400: await post('{'),
      403: await post('{}', { origin: 'https://evil.example' }),
      415: await post('{}', { 'content-type': 'text/plain' }),
      health: await fetch(`${server.url}/api/health`),
      404: await fetch(`${server.url}/api/nothing`),
      405: await fetch(`${server.url}${SUBMISSIONS_PATH}`),
      preflight: await fetch(`${server.url}${SUBMISSIONS_PATH}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://sonde.dev', 'access-control-request-method': 'POST' },
      }),
    };
    for (const [what, response] of Object.entries(answers)) expectApiHeaders(response.headers, what);
    expect(answers[201].status).toBe(201);
    expect(answers[400].status).toBe(400);
    expect(answers.preflight.status).toBe(204);
  });

  it('answer any method but POST and OPTIONS on /api/submissions with 405 and Allow', async () => {
    const server = await start();
    for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'TRACE']) {
      const answer = await raw(server, `${method} ${SUBMISSIONS_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow, method).toBe('POST, OPTIONS');
      expectApiHeaders(answer.headers, method);
    }
  });
});

describe('configuration that would let a header choose the origin', () => {
  it('refuses to listen on every interface without being told the public origin', () => {
    expect(() => readConfig({ HOST: '0.0.0.0' })).toThrow(/set SONDE_PUBLIC_ORIGIN/);
    expect(() => readConfig({ HOST: '::' })).toThrow(/set SONDE_PUBLIC_ORIGIN/);
    expect(readConfig({ HOST: '0.0.0.0', SONDE_PUBLIC_ORIGIN: 'https://sonde.dev' }).publicOrigin).toBe('https://sonde.dev');
    expect(readConfig({ HOST: '0.0.0.0', SONDE_ALLOWED_ORIGINS: 'https://sonde.dev' }).allowedOrigins).toEqual(['https://sonde.dev']);
    expect(() => readConfig({ SONDE_PUBLIC_ORIGIN: 'https://sonde.dev/path' })).toThrow(/SONDE_PUBLIC_ORIGIN/);
    expect(() => readConfig({ SONDE_SMTP_URL: 'http://mail.example' })).toThrow(/SONDE_SMTP_URL/);
    expect(() => readConfig({ SONDE_TEAM_EMAIL: 'not an address' })).toThrow(/SONDE_TEAM_EMAIL/);
    // a proxy setting read as false without a word would count every visitor as the proxy's address
    for (const value of ['1', 'yes', 'on']) expect(() => readConfig({ SONDE_TRUST_PROXY: value })).toThrow(`SONDE_TRUST_PROXY must be true or false, not "${value}"`);
    expect([undefined, '', 'false', 'False', 'true', 'TRUE'].map((value) => readConfig({ SONDE_TRUST_PROXY: value }).trustProxy)).toEqual([false, false, false, false, true, true]);
    // the log level in any case, as pino takes it; an unknown one stops the server (tests/server/process.test.ts)
    expect([undefined, '', 'INFO', 'Debug', 'silent'].map(logLevelOf)).toEqual(['info', 'info', 'info', 'debug', 'silent']);
    expect(() => logLevelOf('loud')).toThrow('SONDE_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, not "loud"');
  });

  it('on loopback by default, names http://localhost:PORT the public origin (WebAuthn takes no IP address as RP ID) and lets the listen address POST', () => {
    for (const HOST of [undefined, '127.0.0.1', '::1', 'localhost']) {
      const config = readConfig(HOST ? { HOST } : {});
      expect(publicOriginOf(config, 4173), HOST).toBe('http://localhost:4173');
      expect(allowedOriginsOf(config, 4173), HOST).toEqual(HOST === 'localhost' ? undefined : [HOST === '::1' ? 'http://[::1]:4173' : 'http://127.0.0.1:4173']);
    }
    // another address is its own origin; a configured origin is taken as it is, with nothing added
    expect(publicOriginOf(readConfig({ HOST: '192.168.1.5' }), 8080)).toBe('http://192.168.1.5:8080');
    expect(allowedOriginsOf(readConfig({ HOST: '192.168.1.5' }), 8080)).toBeUndefined();
    const set = readConfig({ SONDE_PUBLIC_ORIGIN: 'https://sonde.dev' });
    expect([publicOriginOf(set, 4173), allowedOriginsOf(set, 4173)]).toEqual(['https://sonde.dev', undefined]);
    const allowed = readConfig({ SONDE_ALLOWED_ORIGINS: 'https://a.example,https://b.example' });
    expect([publicOriginOf(allowed, 4173), allowedOriginsOf(allowed, 4173)]).toEqual(['https://a.example', ['https://a.example', 'https://b.example']]);
  });

  it("refuses the announcement webhook's old variable, naming the new one, rather than announcing nothing", () => {
    expect(() => readConfig({ SONDE_NOTIFY_WEBHOOK_URL: 'https://hooks.example/x' })).toThrow(/is now SONDE_ANNOUNCE_WEBHOOK_URL/);
    expect(readConfig({ SONDE_ANNOUNCE_WEBHOOK_URL: 'https://hooks.example/x' }).announceWebhookUrl).toBe('https://hooks.example/x');
  });
});

describe('a client that goes away midway', () => {
  it('is answered 400 and logged at info, chunked or not, never as a server error', async () => {
    const lines: string[] = [];
    const server = await startTestServer(testConfig(distDir), createLogger('info', { write: (line: string) => void lines.push(line) }));
    running.push(server);
    for (const chunked of [true, false]) {
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${server.url}${SUBMISSIONS_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': '5000' }) },
        });
        req.on('error', () => resolve());
        req.write('{"event":');
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
    }
    // each is counted once the server sees its socket close: waited for, not guessed (a loaded machine
    // takes longer). The refusal log writes the first at once and counts the second into one line at stop.
    const notWhole = () => lines.filter((line) => line.includes('submission body not received whole')).map((line) => JSON.parse(line) as { repeated?: number });
    await expect.poll(() => notWhole().length, { timeout: 10_000 }).toBe(1);
    expect((await submitFrom(server, '127.0.0.1')).status).toBe(201); // no upload place was left taken
    await server.stop();
    // both counted: a line each, or the second in the line of `repeated` at the stop (a line counts `repeated`, else 1)
    await expect.poll(() => notWhole().reduce((sum, line) => sum + (line.repeated ?? 1), 0), { timeout: 10_000 }).toBe(2);
    expect(lines.filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});
