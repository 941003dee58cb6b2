// @vitest-environment node
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, TEXT_LIMITS } from '#shared/submission';
import { createApp } from '../../server/http/app.ts';
import type { Database } from '../../server/db/database.ts';
import { submissions } from '../../server/db/schema.ts';
import { DATABASE_UNAVAILABLE_RETRY_AFTER_S, IDEMPOTENCY_KEY_MAX_LENGTH, OPTION_LIST_MAX_ENTRIES, SUBMITTED_AT_MAX_AGE_MS, SUBMITTED_AT_MAX_AHEAD_MS } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../support/server.ts';
import { testEngines, withTestDatabase } from '../support/database.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';

/** Every log line the server wrote during a test, parsed. */
const logLines: Array<Record<string, unknown>> = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

describe.each(testEngines())('POST /api/submissions over HTTP on $name', (engine) => {
  let distDir: string;
  let database: Database;
  let server: RunningServer;

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const rows = () => database.db.select().from(submissions);

  beforeAll(async () => {
    distDir = await writeStandInSite();
  });
  beforeEach(async () => {
    logLines.length = 0;
    database = await engine.open();
    server = await startTestServer(testConfig(distDir), createLogger('info', logStream), { database });
  });
  afterEach(async () => {
    await server.stop();
  });

  it('stores an invite request and answers 201 with its id once the row is committed', async () => {
    const body = submissionBody();
    const response = await post(body);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { ok: boolean; id: string };
    expect(answer).toEqual({ ok: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const [row] = await rows();
    expect(row).toMatchObject({ id: answer.id, kind: 'invite', email: 'ada@example.com', dueAt: null, idempotencyKey: null });
    expect(row?.body).toEqual(body);
  });

  it('stores a privacy request as kind privacy, due 45 days after it was received, its address with the domain lower-cased and the local part as typed', async () => {
    const response = await post(privacyRequestBody()); // from Grace@Example.com
    expect(response.status).toBe(201);
    const [row] = await rows();
    expect(row).toMatchObject({ kind: 'privacy', email: 'Grace@example.com', mailbox: 'grace@example.com' });
    expect(row!.dueAt!.getTime() - row!.receivedAt.getTime()).toBe(45 * 86_400_000);
  });

  it('answers a repeat with the same Idempotency-Key with the first answer and stores nothing new', async () => {
    const body = submissionBody();
    const first = await post(body, { 'idempotency-key': 'c1c0ffee-0000-4000-8000-000000000001' });
    const again = await post(body, { 'idempotency-key': 'c1c0ffee-0000-4000-8000-000000000001' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await rows()).toHaveLength(1);
  });

  it('stores racing requests with one key once', async () => {
    const body = submissionBody();
    const answers = await Promise.all([1, 2, 3, 4].map(() => post(body, { 'idempotency-key': 'race' })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const ids = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as { id: string }).id)));
    expect(ids.size).toBe(1);
    expect(await rows()).toHaveLength(1);
  });

  it('refuses a used Idempotency-Key with a different body (422) and stores nothing', async () => {
    await post(submissionBody(), { 'idempotency-key': 'k' });
    const other = await post(submissionBody({ fullName: 'Someone Else' }), { 'idempotency-key': 'k' });
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ error: 'Idempotency-Key was already used with a different body' });
    expect(await rows()).toHaveLength(1);
  });

  it(`accepts an Idempotency-Key of ${IDEMPOTENCY_KEY_MAX_LENGTH} characters and refuses one more (400)`, async () => {
    expect((await post(submissionBody(), { 'idempotency-key': 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH) })).status).toBe(201);
    const long = await post(submissionBody(), { 'idempotency-key': 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1) });
    expect(long.status).toBe(400);
    expect(await rows()).toHaveLength(1);
  });

  /** A valid body of exactly {@link MAX_BODY_BYTES} bytes: JSON allows trailing space. */
  const bodyOfMaxSize = () => {
    const json = JSON.stringify(submissionBody());
    return json + ' '.repeat(MAX_BODY_BYTES - Buffer.byteLength(json));
  };

  it(`reads a body of ${MAX_BODY_BYTES} bytes and answers 413 for one byte more, storing nothing`, async () => {
    const exact = bodyOfMaxSize();
    expect((await post(exact)).status).toBe(201);
    const over = await post(`${exact} `);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: `Body is larger than ${MAX_BODY_BYTES} bytes` });
    expect(await rows()).toHaveLength(1);
  });

  it(`counts a chunked body (no Content-Length) as it streams: ${MAX_BODY_BYTES} bytes are read, one more is 413`, async () => {
    const exact = bodyOfMaxSize();
    const chunked = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      const half = Math.floor(bytes.length / 2);
      return fetch(`${server.url}/api/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(bytes.subarray(0, half));
            controller.enqueue(bytes.subarray(half));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    };
    expect((await chunked(exact)).status).toBe(201);
    const over = await chunked(`${exact} `);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: `Body is larger than ${MAX_BODY_BYTES} bytes` });
    expect(await rows()).toHaveLength(1);
  });

  it('answers 500 "Submission could not be stored" when the database fails, and the server stays up', async () => {
    await database.db.execute(sql`alter table submissions add constraint fail_every_insert check (false) not valid`);
    const response = await post(submissionBody());
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Submission could not be stored' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('answers 503 with Retry-After, as every API route does, when the database cannot be reached, and the server stays up', async () => {
    await database.close();
    const response = await post(submissionBody());
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_S));
    expect(await response.json()).toEqual({ error: 'The database is not available; try again in a few seconds' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(503);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it('logs a database refusal without the statement, its parameters or the row: no name, email or IP at any level', async () => {
    // A check that fails every insert: PostgreSQL's error carries the failing row in its detail, and
    // Drizzle's wraps the statement and every parameter (the body, the email, the client IP's hash).
    await database.db.execute(sql`alter table submissions add constraint fail_every_insert check (false) not valid`);
    const response = await post(submissionBody({ fullName: 'Ada Lovelace', workEmail: 'ada@example.com', clientIP: '203.0.113.9' }));
    expect(response.status).toBe(500);
    const failure = logLines.find((line) => line.msg === 'submission could not be stored');
    expect(failure).toMatchObject({ level: 50, err: { code: '23514' } });
    const everything = JSON.stringify(logLines);
    for (const personal of ['Ada Lovelace', 'ada@example.com', '203.0.113.9', 'sonde_0123456789abcdef', 'Mozilla/5.0', 'insert into']) {
      expect(everything).not.toContain(personal);
    }
  });

  it('answers 400, not 500, when the database refuses a value as a data exception (SQLSTATE class 22): a retry would never be stored', async () => {
    // The schema lets every value through that the database stores; this check stands for one it missed.
    await database.db.execute(sql`alter table submissions add constraint name_is_a_number check ((body->'data'->>'fullName')::int > 0) not valid`);
    const response = await post(submissionBody({ fullName: 'Ada Lovelace' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Body holds a value that cannot be stored' });
    expect(JSON.stringify(logLines)).not.toContain('Ada Lovelace');
  });

  it('logs a flood past the rate limit as its first refusal and one count when the server stops, not a line each', async () => {
    const limited = await startTestServer(testConfig(distDir, { rateLimitPerMinute: 1 }), createLogger('info', logStream), { database });
    const send = () => fetch(`${limited.url}/api/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(submissionBody()) });
    expect((await send()).status).toBe(201);
    // one after another: the address never has more than one under way, so each is refused by the rate limit
    for (let i = 0; i < 30; i += 1) expect((await send()).status).toBe(429);
    const refusals = () => logLines.filter((line) => String(line.msg).startsWith('submission refused: rate limit'));
    expect(refusals()).toEqual([expect.objectContaining({ status: 429, msg: 'submission refused: rate limit' })]);
    await limited.stop(); // what the refusal log holds is written when the server stops (or its interval ends)
    expect(refusals()).toHaveLength(2);
    expect(refusals()[1]).toMatchObject({ status: 429, repeated: 29, msg: 'submission refused: rate limit (29 more since its last line)' });
  });

  it('logs a stored submission as JSON with its id only: no name, email or IP at info level', async () => {
    const response = await post(submissionBody({ fullName: 'Ada Lovelace', workEmail: 'ada@example.com' }));
    const { id } = (await response.json()) as { id: string };
    const stored = logLines.find((line) => line.msg === 'submission stored');
    expect(stored).toMatchObject({ submissionId: id, kind: 'invite', level: 30 });
    const everything = JSON.stringify(logLines);
    for (const personal of ['Ada Lovelace', 'ada@example.com', '203.0.113.9']) expect(everything).not.toContain(personal);
  });
});

describe.each(testEngines())("the outbox's sender on $name: woken only by a submission that wrote a delivery", (engine) => {
  let database: Database;
  withTestDatabase(engine, (opened) => (database = opened));

  it('kicks the sender for an acknowledgment to send, not for a request past its mailbox\'s limit, which wrote none', async () => {
    let kicks = 0;
    const app = createApp({
      database,
      logger: createLogger('silent'),
      rateLimitPerMinute: 1000,
      publicOrigin: 'http://localhost',
      outbox: { kick: () => void (kicks += 1), webhook: false, requesterMail: true, teamMail: false },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const post = async (workEmail: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/api/submissions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(submissionBody({ workEmail })),
        });
        expect(response.status).toBe(201);
      };
      await post('ada@example.com'); // its acknowledgment: a delivery to send now
      expect(kicks).toBe(1);
      await post('ada@example.com'); // stored, past MAIL_LIMITS.invitePerWindow: no mail, nothing to send
      expect(kicks).toBe(1);
      await post('grace@example.com');
      expect(kicks).toBe(2);
      expect(await database.db.select().from(submissions)).toHaveLength(3);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.each(testEngines())('bad input on $name: a clear 400 naming the field, and nothing stored', (engine) => {
  let database: Database;
  const now = new Date('2026-11-22T12:00:00.000Z');
  withTestDatabase(engine, (opened) => (database = opened), 'all');
  afterEach(async () => {
    await database.db.delete(submissions);
  });

  const app = () => createApp({ database, logger: createLogger('silent'), now: () => now, rateLimitPerMinute: 1000, publicOrigin: 'http://localhost' });
  const post = (body: unknown) =>
    app().request('/api/submissions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const body = (data: Parameters<typeof submissionBody>[0]) => submissionBody(data, now);
  const stored = () => database.db.select().from(submissions);

  it.each([
    ['not JSON', '{"event":', 'Body is not valid JSON'],
    ['another event', { ...submissionBody({}, now), event: 'signup' }, 'event: Invalid input: expected "invite_request"'],
    ['consent not given', body({ consentGiven: false }), 'data.consentGiven: must be true: consent is required'],
    ['a website that is not http(s)', body({ websiteUrl: 'ftp://files.example.com' }), 'data.websiteUrl: must be an http(s) URL'],
    ['a javascript: website', body({ websiteUrl: 'javascript:alert(1)' }), 'data.websiteUrl: must be an http(s) URL'],
    ['a client IP that is not an address', body({ clientIP: '999.1.1.1' }), 'data.clientIP: must be an IPv4 or IPv6 address, or null'],
    ['a required field of spaces', body({ companyName: '   ' }), 'data.companyName: is required'],
    ['a CR/LF in a name (log forging)', body({ fullName: 'Ada\r\n{"level":30}' }), 'data.fullName: contains a control character (U+000D)'],
    ['a NUL in the description', body({ useCaseDescription: 'a\u0000b' }), 'data.useCaseDescription: contains a control character (U+0000)'],
    ['an email that is not one', body({ workEmail: 'ada@' }), 'data.workEmail: Invalid email address'],
    // The text rule (shared/text.ts), in every string field, the URL included
    ['a lone surrogate in a name', body({ fullName: 'Ada\ud800' }), 'data.fullName: is not well-formed Unicode (a lone surrogate)'],
    ['a lone surrogate in an option', body({ primaryWorkloads: ['RAG\udfff'] }), 'data.primaryWorkloads.0: is not well-formed Unicode (a lone surrogate)'],
    ['a NUL in the website', body({ websiteUrl: 'https://example.com/\u0000' }), 'data.websiteUrl: contains a control character (U+0000)'],
    ['an ESC sequence in the website', body({ websiteUrl: 'https://example.com/\u001b[2J' }), 'data.websiteUrl: contains a control character (U+001B)'],
    ['an OSC 8 hyperlink in the website', body({ websiteUrl: 'https://a.example/\u001b]8;;https://evil.example\u0007x' }), 'data.websiteUrl: contains a control character (U+001B)'],
    ['a BEL in the website', body({ websiteUrl: 'https://example.com/\u0007' }), 'data.websiteUrl: contains a control character (U+0007)'],
    ['a DEL in a name', body({ fullName: 'Ada\u007f' }), 'data.fullName: contains a control character (U+007F)'],
    ['a C1 control (CSI) in the company', body({ companyName: 'Acme\u009b2J' }), 'data.companyName: contains a control character (U+009B)'],
    ['an ESC in the notes', body({ notes: 'a\u001b[31mred' }), 'data.notes: contains a control character (U+001B)'],
    ['a right-to-left override in a name', body({ fullName: 'Ada \u202egpj.exe' }), 'data.fullName: contains a text-direction control character (U+202E)'],
    ['a direction isolate in the description', body({ useCaseDescription: 'a\u2066b\u2069' }), 'data.useCaseDescription: contains a text-direction control character (U+2066)'],
    ['a line separator in a name', body({ fullName: 'Ada\u2028Lovelace' }), 'data.fullName: contains a line break (U+2028)'],
    ['a name of zero-width spaces', body({ fullName: '\u200b\u200b' }), 'data.fullName: is required'],
    ['a name of a blank Braille pattern', body({ fullName: '\u2800' }), 'data.fullName: is required'],
    ['a name of a Hangul filler', body({ fullName: '\u3164' }), 'data.fullName: is required'],
    ['a name of a null notehead', body({ fullName: '\u{1D159}' }), 'data.fullName: is required'],
    ['a description of spaces and line breaks', body({ useCaseDescription: ' \n\t\u00a0' }), 'data.useCaseDescription: is required'],
    ['a date that is not one', body({ desiredStartDate: '2027-13-01' }), 'data.desiredStartDate: Invalid ISO date'],
    ['a missing field', body({ peakQPS: undefined }), 'data.peakQPS: Invalid input: expected string, received undefined'],
  ])('%s', async (_name, input, problem) => {
    const response = await post(input);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: problem });
    expect(await stored()).toHaveLength(0);
  });

  it('keeps newlines and tabs in the description and the notes', async () => {
    const response = await post(body({ useCaseDescription: 'line one\nline two\r\n\tindented', notes: 'a\nb' }));
    expect(response.status).toBe(201);
  });

  it('stores text NFC-normalised, and keeps what the rule allows: accents, scripts, emoji, a zero-width joiner', async () => {
    const decomposed = 'Zoe\u0301 Ma\u0308rz'; // é and ä typed as a letter and a combining mark
    const response = await post(body({ fullName: decomposed, companyName: 'می\u200cخواهم 👩\u200d💻 株式会社' }));
    expect(response.status).toBe(201);
    const [row] = await stored();
    expect(row!.body.data.fullName).toBe('Zoé März');
    expect(row!.body.data.companyName).toBe('می\u200cخواهم 👩\u200d💻 株式会社');
  });

  it(`accepts an option list of OPTION_LIST_MAX_ENTRIES (${OPTION_LIST_MAX_ENTRIES}) entries and refuses one more`, async () => {
    const options = (count: number) => Array.from({ length: count }, (_, i) => `Option ${i + 1}`);
    expect((await post(body({ primaryWorkloads: options(OPTION_LIST_MAX_ENTRIES) }))).status).toBe(201);
    const over = await post(body({ mustHaveCapabilities: options(OPTION_LIST_MAX_ENTRIES + 1) }));
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ error: `data.mustHaveCapabilities: has more than ${OPTION_LIST_MAX_ENTRIES} entries` });
    expect(await stored()).toHaveLength(1);
  });

  it('accepts a client IP of null, IPv4 or IPv6', async () => {
    for (const clientIP of [null, '198.51.100.4', '2001:db8::1']) expect((await post(body({ clientIP }))).status).toBe(201);
  });

  it.each([
    ['fullName', TEXT_LIMITS.short],
    ['companyName', TEXT_LIMITS.short],
    ['peakQPS', TEXT_LIMITS.short],
    ['useCaseDescription', TEXT_LIMITS.long],
    ['notes', TEXT_LIMITS.long],
  ] as const)('accepts %s of %i characters and refuses one more', async (field, limit) => {
    expect((await post(body({ [field]: 'x'.repeat(limit) }))).status).toBe(201);
    const over = await post(body({ [field]: 'x'.repeat(limit + 1) }));
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ error: `data.${field}: is longer than ${limit} characters` });
    expect(await stored()).toHaveLength(1);
  });

  it(`accepts a website URL of ${TEXT_LIMITS.url} characters and refuses one more`, async () => {
    const url = (n: number) => `https://example.com/${'p'.repeat(n - 'https://example.com/'.length)}`;
    expect((await post(body({ websiteUrl: url(TEXT_LIMITS.url) }))).status).toBe(201);
    expect((await post(body({ websiteUrl: url(TEXT_LIMITS.url + 1) }))).status).toBe(400);
  });

  it(`accepts an email of ${TEXT_LIMITS.email} characters and refuses one more`, async () => {
    const email = (n: number) => `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(n - 60 - 1 - 60 - 1 - 60 - 1 - 4)}.com`;
    expect(email(TEXT_LIMITS.email)).toHaveLength(TEXT_LIMITS.email);
    expect((await post(body({ workEmail: email(TEXT_LIMITS.email) }))).status).toBe(201);
    const over = await post(body({ workEmail: email(TEXT_LIMITS.email + 1) }));
    expect(await over.json()).toEqual({ error: `data.workEmail: is longer than ${TEXT_LIMITS.email} characters` });
  });

  it('accepts submittedAt up to 5 minutes ahead of the server clock and up to 30 days old, not beyond', async () => {
    const at = (offsetMs: number) => body({ submittedAt: new Date(now.getTime() + offsetMs).toISOString() });
    expect((await post(at(SUBMITTED_AT_MAX_AHEAD_MS))).status).toBe(201);
    expect((await post(at(-SUBMITTED_AT_MAX_AGE_MS))).status).toBe(201);
    const ahead = await post(at(SUBMITTED_AT_MAX_AHEAD_MS + 1));
    expect(await ahead.json()).toEqual({ error: 'data.submittedAt: is more than 5 minutes ahead of the server clock' });
    const old = await post(at(-SUBMITTED_AT_MAX_AGE_MS - 1));
    expect(await old.json()).toEqual({ error: 'data.submittedAt: is more than 30 days old' });
    expect(await stored()).toHaveLength(2);
  });

  it.each([
    ['text/plain', 415],
    ['application/json; charset=utf-8', 201],
    ['application/json; charset=latin1', 415],
    ['application/jsonp', 415],
    ['multipart/form-data; boundary=x', 415],
  ])('content type %s → %i', async (type, status) => {
    const response = await app().request('/api/submissions', { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(body({})) });
    expect(response.status).toBe(status);
    expect(await stored()).toHaveLength(status === 201 ? 1 : 0);
  });

  it('answers 405 with Allow for another method', async () => {
    const response = await app().request('/api/submissions');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('stores only the fields of spec §7.1: unknown keys are dropped', async () => {
    const response = await post({ ...body({}), extra: 1, data: { ...body({}).data, isAdmin: true } });
    expect(response.status).toBe(201);
    const [row] = await database.db.select().from(submissions).where(eq(submissions.email, 'ada@example.com'));
    expect(row?.body).toEqual(body({}));
  });
});
