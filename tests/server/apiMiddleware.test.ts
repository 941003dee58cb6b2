// @vitest-environment node
// The middleware every API route shares (server/http/middleware.ts), checked on each POST route over
// real HTTP: one content-type check, one JSON-body reader with the route's size limit, in one order.
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, SUBMISSIONS_PATH } from '#shared/submission';
import { VERIFICATION_CONFIRM_PATH, VERIFICATION_LOOKUP_PATH } from '#shared/verification';
import { VERIFICATION_BODY_MAX_BYTES } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { submissionBody } from '../support/submissionBody.ts';

/** Each POST route, its size limit, a body it takes, the status that body gets, and its name in the log. */
const ROUTES = [
  { path: SUBMISSIONS_PATH, limit: MAX_BODY_BYTES, body: () => JSON.stringify(submissionBody()), taken: 201, what: 'submission' },
  { path: VERIFICATION_LOOKUP_PATH, limit: VERIFICATION_BODY_MAX_BYTES, body: () => JSON.stringify({ token: 'A'.repeat(43) }), taken: 404, what: 'verification' },
  { path: VERIFICATION_CONFIRM_PATH, limit: VERIFICATION_BODY_MAX_BYTES, body: () => JSON.stringify({ token: 'A'.repeat(43) }), taken: 404, what: 'verification' },
];

/** `json` padded with trailing spaces (JSON allows them) to `bytes` bytes. */
const padded = (json: string, bytes: number) => json + ' '.repeat(bytes - Buffer.byteLength(json));

let server: RunningServer;
const lines: string[] = [];
beforeEach(async () => {
  lines.length = 0;
  server = await startTestServer(testConfig(await writeStandInSite()), createLogger('info', { write: (line: string) => void lines.push(line) }));
});
afterEach(async () => {
  await server.stop();
});

/** POSTs `text` with a Content-Length, or chunked (a stream of 100-byte chunks, no length). */
const post = (path: string, text: string, type: string, chunked: boolean) => {
  const bytes = new TextEncoder().encode(text);
  const body = chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 100) controller.enqueue(bytes.subarray(i, i + 100));
          controller.close();
        },
      })
    : bytes;
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body, duplex: 'half' } as RequestInit);
};

describe.each(ROUTES)('POST $path', ({ path, limit, body, taken, what }) => {
  it.each([false, true])(`takes a body of exactly its limit, 413 one byte over; a wrong content type is 415 first, at the limit and over it (chunked: %s)`, async (chunked) => {
    expect((await post(path, padded(body(), limit), 'application/json', chunked)).status).toBe(taken);
    const over = await post(path, padded(body(), limit + 1), 'application/json', chunked);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: `Body is larger than ${limit} bytes` });
    for (const bytes of [limit, limit + 1]) {
      const wrongType = await post(path, padded(body(), bytes), 'text/plain', chunked);
      expect(wrongType.status, `${bytes} bytes`).toBe(415);
      expect(await wrongType.json()).toEqual({ error: 'Content-Type must be application/json' });
    }
  });

  it('logs a client that goes away midway at info, once per interval (the refusal log), chunked or not, never as a server error, and answers the next request', async () => {
    for (const chunked of [true, false]) {
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(limit) }) },
        });
        req.on('error', () => resolve());
        req.write('{"token":');
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
    }
    expect((await post(path, body(), 'application/json', false)).status).toBe(taken);
    // through the refusal log: the first at once, the second counted into one line when the server stops
    // (or a line of its own, when it came after the stop)
    const notWhole = () => lines.filter((line) => line.includes(`"level":30`) && line.includes(`${what} body not received whole`)).map((line) => JSON.parse(line) as { status: number; path: string; repeated?: number });
    await expect.poll(() => notWhole().length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(notWhole()).toEqual([expect.objectContaining({ status: 400, path })]);
    await server.stop();
    await expect.poll(() => notWhole().reduce((sum, line) => sum + (line.repeated ?? 1), 0), { timeout: 10_000 }).toBe(2);
    expect(lines.filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});
