// @vitest-environment node
// The verification link of a privacy request (11 CCR §7060, §7062), over real HTTP, with the
// confirmation mail received by a real SMTP server: the link, its look-up, "Confirm it's me", the
// record it writes, and every way a link stops working.
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import { VERIFICATION_CONFIRM_PATH, VERIFICATION_LOOKUP_PATH, VERIFY_PAGE_PATH } from '#shared/verification';
import { deliveries, privacyRecords, privacyVerifications } from '../../server/db/schema.ts';
import { VERIFICATION_BODY_MAX_BYTES, VERIFICATION_CALLS_PER_MINUTE } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { serverWithSmtp, startTestServer } from '../support/server.ts';
import { eraseSubject, purgeExpired } from '../../server/db/retention.ts';
import { sha256Hex } from '../../server/db/mailbox.ts';
import { teamCli } from '../support/cli.ts';
import { testEngines } from '../support/database.ts';
import { until } from '../support/mailServer.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody } from '../support/submissionBody.ts';

function privacyRequest(types: string, email: string): SubmissionBody {
  const body = privacyRequestBody();
  body.data.workEmail = email;
  body.data.useCaseDescription = `CCPA Privacy Rights Request\nRequest types: ${types}\nDetails: None provided`;
  return body;
}

const LINK = /(https?:\/\/\S+?\/privacy-request\/verify)#token=([A-Za-z0-9_-]{43})/;

describe.each(testEngines())('verification links on $name', (engine) => {
  const running = serverWithSmtp(engine);

  const submit = async (body: SubmissionBody): Promise<string> => {
    const response = await fetch(`${running.server.url}${SUBMISSIONS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${running.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const lookUp = (token: string) => call(VERIFICATION_LOOKUP_PATH, { token });
  const confirm = (token: string) => call(VERIFICATION_CONFIRM_PATH, { token });
  /** The confirmation mail to `email`, once it arrived, and the token of its link. */
  const confirmationTo = async (email: string) => {
    await until(() => running.smtp.received.some((r) => r.to.includes(email)));
    const mail = running.smtp.received.find((r) => r.to.includes(email))!.mail;
    const match = LINK.exec(mail.text ?? '');
    return { mail, page: match?.[1], token: match?.[2] };
  };
  const record = async (id: string) => (await running.database.db.select().from(privacyRecords).where(eq(privacyRecords.id, id)))[0]!;

  it('mails a link whose token only the mail holds; the page confirms the request once, and says so after', async () => {
    const id = await submit(privacyRequest('Delete, Access/Know', 'ada@example.com'));
    const { mail, page, token } = await confirmationTo('ada@example.com');
    expect(page).toBe(`${running.server.publicOrigin}${VERIFY_PAGE_PATH}`);
    expect(token).toBeDefined();
    expect(mail.text).toContain('press “Confirm it\'s me”');
    expect(mail.html).toContain(`href="${running.server.publicOrigin}${VERIFY_PAGE_PATH}#token=${token}"`);

    // Once the mail is delivered, only the token's SHA-256 is stored, and nothing else holds the token
    // (until then the mail is kept as rendered, link included, to be sent again as it is).
    await until(async () => (await running.database.db.select().from(deliveries).where(eq(deliveries.message, 'privacy-confirmation'))).every((row) => row.deliveredAt !== null));
    const links = await running.database.db.select().from(privacyVerifications);
    expect(links).toEqual([expect.objectContaining({ tokenSha256: sha256Hex(token!), requestId: id, usedAt: null })]);
    const everything = await running.database.db.execute(sql`select (select json_agg(s) from submissions s)::text || (select json_agg(d) from deliveries d)::text || (select json_agg(r) from privacy_records r)::text as dump`);
    expect(JSON.stringify(everything)).not.toContain(token);

    // The look-up shows the request and changes nothing: a mail scanner opening the link verifies nothing.
    const looked = await lookUp(token!);
    expect(looked.status).toBe(200);
    expect(looked.headers.get('cache-control')).toBe('no-store');
    const shown = (await looked.json()) as Record<string, unknown>;
    expect(shown).toEqual({ status: 'unverified', requestTypes: ['Access/Know', 'Delete'], receivedAt: (await record(id)).receivedAt.toISOString() });
    expect((await record(id)).verifiedAt).toBeNull();

    const confirmed = await confirm(token!);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ ...shown, status: 'confirmed' });
    expect(await record(id)).toMatchObject({ verifiedAt: expect.any(Date), verifiedBy: 'link' });
    expect((await running.database.db.select().from(privacyVerifications))[0]!.usedAt).toEqual(expect.any(Date));

    // The same link again: it confirms nothing more, and says the request already is.
    expect(await (await confirm(token!)).json()).toEqual({ ...shown, status: 'verified' });
    expect(await (await lookUp(token!)).json()).toEqual({ ...shown, status: 'verified' });

    // `show` tells how it was verified
    const { io, run } = teamCli(() => running.database);
    await run(['show', id]);
    expect(JSON.parse(io.out[0]!).history).toContainEqual(expect.objectContaining({ event: 'verified', how: 'verification link' }));
  }, 30_000);

  it('confirms once when the button is pressed in many tabs at once: one "confirmed", every other "verified"', async () => {
    const id = await submit(privacyRequest('Correct', 'tabs@example.com'));
    const { token } = await confirmationTo('tabs@example.com');
    const answers = await Promise.all(Array.from({ length: 12 }, async () => ((await (await confirm(token!)).json()) as { status: string }).status));
    expect(answers.filter((status) => status === 'confirmed')).toHaveLength(1);
    expect(answers.filter((status) => status === 'verified')).toHaveLength(11);
    expect(await record(id)).toMatchObject({ verifiedBy: 'link' });
  }, 30_000);

  it('puts no link in the confirmation of an opt-out, which needs no verification', async () => {
    await submit(privacyRequest('Opt-Out', 'otto@example.com'));
    const { mail, token } = await confirmationTo('otto@example.com');
    expect(token).toBeUndefined();
    expect(mail.text).not.toContain(VERIFY_PAGE_PATH);
    expect(await running.database.db.select().from(privacyVerifications)).toEqual([]);
  }, 30_000);

  it('answers an unknown, malformed, expired or answered link 404, and purge deletes the spent ones', async () => {
    const unknown = 'A'.repeat(43);
    for (const token of [unknown, 'short', `${unknown}A`, '../../etc']) {
      const response = await lookUp(token);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'This link is unknown or has expired' });
      expect((await confirm(token)).status).toBe(404);
    }

    const late = await submit(privacyRequest('Correct', 'late@example.com'));
    const { token: lateToken } = await confirmationTo('late@example.com');
    // a minute before the due date the link works; at it, it does not
    await running.database.db.update(privacyRecords).set({ dueAt: sql`now() + interval '1 minute'` }).where(eq(privacyRecords.id, late));
    expect((await lookUp(lateToken!)).status).toBe(200);
    await running.database.db.update(privacyRecords).set({ dueAt: sql`now()` }).where(eq(privacyRecords.id, late));
    expect((await lookUp(lateToken!)).status).toBe(404);
    expect((await confirm(lateToken!)).status).toBe(404);
    expect((await record(late)).verifiedAt).toBeNull();

    const answered = await submit(privacyRequest('Data Portability', 'done@example.com'));
    const { token: answeredToken } = await confirmationTo('done@example.com');
    const cli = teamCli(() => running.database).run;
    expect(await cli(['respond', answered, '--outcome', 'denied', '--reason', 'We hold no data under this address.'])).toBe(0);
    expect((await lookUp(answeredToken!)).status).toBe(404);
    // respond deleted its links at once; purge deletes those past due
    expect((await running.database.db.select().from(privacyVerifications)).map((v) => v.requestId)).toEqual([late]);
    expect((await purgeExpired(running.database.db, new Date())).verificationLinks).toBe(1);
    expect(await running.database.db.select().from(privacyVerifications)).toEqual([]);
  }, 30_000);

  it('says "already confirmed" when the team verified first, and forgets the links of an erased request', async () => {
    const id = await submit(privacyRequest('Delete', 'reply@example.com'));
    const { token } = await confirmationTo('reply@example.com');
    const cli = teamCli(() => running.database).run;
    expect(await cli(['verify', id])).toBe(0);
    expect(await record(id)).toMatchObject({ verifiedBy: 'team' });
    expect(((await (await confirm(token!)).json()) as { status: string }).status).toBe('verified');
    expect((await record(id)).verifiedBy).toBe('team');

    await eraseSubject(running.database.db, 'reply@example.com');
    expect(await running.database.db.select().from(privacyVerifications)).toEqual([]);
    expect((await lookUp(token!)).status).toBe(404);
  }, 30_000);
});

describe('the verification calls refuse what is not a token', () => {
  let server: RunningServer;
  beforeEach(async () => {
    server = await startTestServer(testConfig(await writeStandInSite()), createLogger('silent'));
  });
  afterEach(async () => {
    await server.stop();
  });
  const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers, body });

  it('400 for a body that is not { token: string }, 415 for another type, 405 for another method, 403 for a foreign origin', async () => {
    for (const path of [VERIFICATION_LOOKUP_PATH, VERIFICATION_CONFIRM_PATH]) {
      expect((await post(path, '{"token":')).status).toBe(400);
      expect((await post(path, '{"token":42}')).status).toBe(400);
      expect((await post(path, '[]')).status).toBe(400);
      expect((await post(path, 'token=abc', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
      const get = await fetch(`${server.url}${path}`);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST, OPTIONS');
      expect((await post(path, '{"token":"x"}', { 'content-type': 'application/json', origin: 'https://evil.example' })).status).toBe(403);
    }
  });

  it(`413 over ${VERIFICATION_BODY_MAX_BYTES} bytes, not at it`, async () => {
    const padded = (bytes: number) => {
      const base = JSON.stringify({ token: '' });
      return JSON.stringify({ token: 'x'.repeat(bytes - base.length) });
    };
    expect(padded(VERIFICATION_BODY_MAX_BYTES)).toHaveLength(VERIFICATION_BODY_MAX_BYTES);
    expect((await post(VERIFICATION_LOOKUP_PATH, padded(VERIFICATION_BODY_MAX_BYTES))).status).toBe(404);
    expect((await post(VERIFICATION_LOOKUP_PATH, padded(VERIFICATION_BODY_MAX_BYTES + 1))).status).toBe(413);
  });

  it('413 for a chunked body (no Content-Length) over the limit, counted as it streams', async () => {
    const chunked = (bytes: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          const text = JSON.stringify({ token: 'x'.repeat(bytes - JSON.stringify({ token: '' }).length) });
          for (let i = 0; i < text.length; i += 100) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 100)));
          controller.close();
        },
      });
    const send = (bytes: number) =>
      fetch(`${server.url}${VERIFICATION_CONFIRM_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunked(bytes), duplex: 'half' } as RequestInit);
    expect((await send(VERIFICATION_BODY_MAX_BYTES)).status).toBe(404);
    expect((await send(VERIFICATION_BODY_MAX_BYTES + 1)).status).toBe(413);
  });

  it(`429 with Retry-After past ${VERIFICATION_CALLS_PER_MINUTE} calls a minute from one address, not at it`, async () => {
    const token = JSON.stringify({ token: 'A'.repeat(43) });
    for (let i = 0; i < VERIFICATION_CALLS_PER_MINUTE; i += 1) {
      expect((await post(i % 2 ? VERIFICATION_LOOKUP_PATH : VERIFICATION_CONFIRM_PATH, token)).status).toBe(404);
    }
    const refused = await post(VERIFICATION_CONFIRM_PATH, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // submissions have their own limit
    expect((await post(SUBMISSIONS_PATH, '{}')).status).toBe(400);
  });

  it(`counts the calls of an IPv6 client by its /64, and each client apart`, async () => {
    const proxied = await startTestServer(testConfig(await writeStandInSite(), { trustProxy: true }), createLogger('silent'));
    try {
      const token = JSON.stringify({ token: 'A'.repeat(43) });
      const from = (ip: string) =>
        fetch(`${proxied.url}${VERIFICATION_LOOKUP_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: token });
      // every call from another address of one /64
      for (let i = 1; i <= VERIFICATION_CALLS_PER_MINUTE; i += 1) expect((await from(`2001:db8:5:6::${i.toString(16)}`)).status).toBe(404);
      expect((await from('2001:db8:5:6:ffff::1')).status).toBe(429);
      expect((await from('2001:db8:5:7::1')).status).toBe(404); // the next /64
      expect((await from('198.51.100.20')).status).toBe(404); // an IPv4 client
    } finally {
      await proxied.stop();
    }
  });
});
