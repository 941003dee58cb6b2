// @vitest-environment node
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInboxMiddleware, INBOX_PATH } from '../../server/inboxPlugin';
import { visitorPayload } from '../inviteFixtures';

const validBody = {
  event: 'invite_request',
  data: {
    ...visitorPayload,
    primaryWorkloads: ['RAG'],
    websiteUrl: 'https://example.com',
    submittedAt: '2026-11-22T10:00:00.000Z',
    clientIP: null,
    browserId: 'sonde_0123456789abcdef_lx1',
    userAgent: 'Mozilla/5.0',
    browserLanguage: 'en-US',
    timezone: 'Europe/Paris',
    screenResolution: '1280x800',
  },
};

let dir: string;
let file: string;
let server: Server | undefined;
let logged: string[];

/** Starts a real HTTP server with the inbox middleware on an ephemeral loopback port. */
async function startInbox(): Promise<string> {
  const inbox = createInboxMiddleware({ file, log: (line) => logged.push(line) });
  server = createServer((req, res) =>
    inbox(req, res, () => {
      res.writeHead(404).end();
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}${INBOX_PATH}`;
}

async function stopInbox() {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
}

function post(url: string, body: string, contentType = 'application/json') {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': contentType }, body });
}

async function storedLines(): Promise<unknown[]> {
  try {
    return (await readFile(file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sonde-inbox-'));
  file = join(dir, 'nested', 'submissions.jsonl');
  logged = [];
});

afterEach(async () => {
  await stopInbox();
  await rm(dir, { recursive: true, force: true });
});

describe('local submissions inbox (POST /api/submissions)', () => {
  it('stores a valid body as one JSON line, answers 201 and prints one line; lines survive a restart', async () => {
    let url = await startInbox();
    const first = await post(url, JSON.stringify(validBody));
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ ok: true });
    expect(logged).toEqual([expect.stringContaining('Ada Lovelace <ada@example.com>')]);

    await stopInbox();
    url = await startInbox();
    const second = await post(url, JSON.stringify({ ...validBody, data: { ...validBody.data, fullName: 'Grace Hopper' } }));
    expect(second.status).toBe(201);

    const lines = await storedLines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({ receivedAt: expect.any(String), ...validBody });
    expect((lines[1] as typeof validBody).data.fullName).toBe('Grace Hopper');
  });

  it.each([
    ['a wrong event name', { ...validBody, event: 'signup' }, /^event: /],
    ['a missing required field', { ...validBody, data: { ...validBody.data, peakQPS: undefined } }, /^data\.peakQPS: /],
    ['a blank required field', { ...validBody, data: { ...validBody.data, fullName: '  ' } }, /^data\.fullName: is required/],
    ['a non-string field', { ...validBody, data: { ...validBody.data, roleTitle: 42 } }, /^data\.roleTitle: /],
    ['a list of non-strings', { ...validBody, data: { ...validBody.data, primaryWorkloads: [1] } }, /^data\.primaryWorkloads\.0: /],
    ['consent that is not a boolean', { ...validBody, data: { ...validBody.data, consentGiven: 'yes' } }, /^data\.consentGiven: /],
    ['a malformed email', { ...validBody, data: { ...validBody.data, workEmail: 'ada' } }, /^data\.workEmail: /],
  ])('answers 400 naming the problem for %s, storing nothing', async (_, body, problem) => {
    const url = await startInbox();
    const response = await post(url, JSON.stringify(body));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(problem);
    expect(await storedLines()).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const url = await startInbox();
    const response = await post(url, '{"event":');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Body is not valid JSON' });
    expect(await storedLines()).toEqual([]);
  });

  it('answers 413 for a 70 KB body, storing nothing', async () => {
    const url = await startInbox();
    const big = { ...validBody, data: { ...validBody.data, notes: 'x'.repeat(70 * 1024) } };
    const response = await post(url, JSON.stringify(big));
    expect(response.status).toBe(413);
    expect(await storedLines()).toEqual([]);
  });

  it('answers 415 for another content type and 405 for another method', async () => {
    const url = await startInbox();
    expect((await post(url, JSON.stringify(validBody), 'text/plain')).status).toBe(415);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await storedLines()).toEqual([]);
  });
});
