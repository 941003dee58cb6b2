// @vitest-environment node
// Answering privacy requests by the book (11 CCR §7021, §7022, §7024, §7101): `respond`, `extend`,
// the history `show` prints, the record that outlives `erase`, and the mail each action sends.
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import type { Database } from '../../server/db/database.ts';
import { deliveries, privacyRecords, submissions } from '../../server/db/schema.ts';
import { createLogger } from '../../server/logger.ts';
import { startTestServer } from '../support/server.ts';
import { TEAM_WRITE_LOCK_ID } from '../../server/db/teamTransaction.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { freePort, smtpServer, until } from '../support/mailServer.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';

const DAY_MS = 86_400_000;

/** A privacy request with these types, stored as the server stores it (record and outbox rows included). */
function privacyRequest(types: string, email = 'grace@example.com'): SubmissionBody {
  const body = privacyRequestBody();
  body.data.workEmail = email;
  body.data.useCaseDescription = `CCPA Privacy Rights Request\nRequest types: ${types}\nDetails: None provided`;
  return body;
}

describe.each(testEngines())('respond, extend, show and erase on $name', (engine) => {
  let database: Database;
  const { io, run } = teamCli(() => database);
  const store = (body: SubmissionBody) => storeSubmission(database.db, body, { mail: { requester: true, team: false } });
  const record = async (id: string) => (await database.db.select().from(privacyRecords).where(eq(privacyRecords.id, id)))[0]!;
  const mails = async (id: string) =>
    (await database.db.select().from(deliveries).where(eq(deliveries.submissionId, id))).map((d) => ({ message: d.message, attachSubject: d.attachSubject }));

  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(async () => {
    await database.close();
  });

  it('records the response, marks the request handled and puts the outcome mail in the outbox, in one go and once', async () => {
    const id = await store(privacyRequest('Delete, Access/Know'));
    expect(await run(['respond', id, '--outcome', 'denied'])).toBe(2);
    expect(io.err).toEqual(['error: --reason is required when the outcome is denied: the requester is told why (11 CCR §7022, §7024)']);
    expect((await record(id)).respondedAt).toBeNull();

    const now = new Date();
    expect(await run(['respond', id, '--outcome', 'partly', '--reason', 'We keep invoices for 7 years (tax law).'], now)).toBe(0);
    expect(await record(id)).toMatchObject({ respondedAt: now, outcome: 'partly', outcomeReason: 'We keep invoices for 7 years (tax law).', respondedBy: 'kim' });
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row).toMatchObject({ handledAt: now, handledBy: 'kim' });
    expect(await mails(id)).toContainEqual({ message: 'privacy-outcome', attachSubject: false });

    expect(await run(['respond', id, '--outcome', 'complied'])).toBe(1);
    expect(io.err[0]).toMatch(/^request .* was already answered on /);
    expect((await mails(id)).filter((m) => m.message === 'privacy-outcome')).toHaveLength(1);
  });

  it('refuses to attach the requester\'s data before they are verified, and attaches it after', async () => {
    const id = await store(privacyRequest('Access/Know'));
    expect(await run(['respond', id, '--outcome', 'complied', '--attach-subject'])).toBe(1);
    expect(io.err[0]).toBe(`request ${id} is not verified: its requester's data is not sent before they confirm it is them (11 CCR §7060)`);
    expect((await record(id)).respondedAt).toBeNull();
    const now = new Date();
    expect(await run(['verify', id], now)).toBe(0);
    expect(io.out[0]).toBe(`request ${id} verified`);
    expect((await record(id)).verifiedAt).toEqual(now);
    expect(await run(['verify', id])).toBe(0);
    expect(io.out[0]).toMatch(/was already verified on /);
    expect(await run(['respond', id, '--outcome', 'complied', '--attach-subject'])).toBe(0);
    expect(await mails(id)).toContainEqual({ message: 'privacy-outcome', attachSubject: true });
  });

  it('carries out no unverified request to know, delete, correct or port; denies it, or partly answers it, with the reason', async () => {
    const del = await store(privacyRequest('Delete, Opt-Out', 'del@example.com'));
    expect(await run(['respond', del, '--outcome', 'complied'])).toBe(1);
    expect(io.err[0]).toBe(
      `request ${del} is not verified: a request to know, delete, correct or port is not carried out before its requester confirms it is them (11 CCR §7060). Record how they confirmed with verify ${del}, or answer --outcome denied (or partly) with the reason`,
    );
    expect((await record(del)).respondedAt).toBeNull();
    expect(await run(['respond', del, '--outcome', 'partly', '--reason', 'Opted out; the deletion needs you to confirm the request.'])).toBe(0);
    // an opt-out alone needs no verification
    const optOut = await store(privacyRequest('Opt-Out', 'opt@example.com'));
    expect(await run(['respond', optOut, '--outcome', 'complied'])).toBe(0);
    // once verified, carried out
    const know = await store(privacyRequest('Access/Know', 'know@example.com'));
    expect(await run(['verify', know])).toBe(0);
    expect(await run(['respond', know, '--outcome', 'complied'])).toBe(0);
  });

  it('extends once, before the due date, by 45 days, with the notice in the outbox', async () => {
    const id = await store(privacyRequest('Correct'));
    const before = await record(id);
    expect(await run(['extend', id])).toBe(2); // --reason is required
    expect(await run(['extend', id, '--reason', 'We are checking the records of three systems.'])).toBe(0);
    const after = await record(id);
    expect(after.dueAt.getTime() - before.dueAt.getTime()).toBe(45 * DAY_MS);
    expect(after.extensionReason).toBe('We are checking the records of three systems.');
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row!.dueAt).toEqual(after.dueAt);
    expect(io.out[0]).toBe(`request ${id} now due ${after.dueAt.toISOString().slice(0, 10)}; the notice with the reason goes out with the server's outbox`);
    expect(await mails(id)).toContainEqual({ message: 'privacy-extension', attachSubject: false });
    expect(await run(['extend', id, '--reason', 'Again'])).toBe(1);
    expect(io.err[0]).toMatch(/the regulations allow one extension$/);

    const late = await store(privacyRequest('Delete', 'ada@example.com'));
    const due = (await record(late)).dueAt;
    expect(await run(['extend', late, '--reason', 'Too late'], new Date(due.getTime() + 1))).toBe(1);
    expect(io.err[0]).toMatch(/an extension must be noticed before then$/);
    expect(await run(['extend', late, '--reason', 'In time'], new Date(due.getTime() - 1))).toBe(0);
  });

  it('writes the signed privacy.responded event with the response, only when the events webhook is set, with no name or email in it', async () => {
    const withEvents = teamCli(() => database, { events: true });
    const [a, b] = [await store(privacyRequest('Opt-Out', 'lin@example.com')), await store(privacyRequest('Opt-Out', 'max@example.com'))];
    const at = new Date();
    expect(await withEvents.run(['respond', a, '--outcome', 'complied'], at)).toBe(0);
    expect(await run(['respond', b, '--outcome', 'complied'], at)).toBe(0);
    const events = await database.db.select().from(deliveries).where(eq(deliveries.channel, 'event'));
    expect(events.map((row) => ({ submissionId: row.submissionId, event: row.event, createdAt: row.createdAt, payload: row.payload }))).toEqual([
      { submissionId: a, event: 'privacy.responded', createdAt: at, payload: { requestId: a, requestTypes: ['Opt-Out'], outcome: 'complied', respondedAt: at.toISOString() } },
    ]);
  });

  it('refuses escape codes and direction overrides in done --by and --note (exit 2), marking nothing', async () => {
    const invite = await store(submissionBody());
    for (const argv of [
      ['--by', 'kim\u001b[2J'],
      ['--note', 'Invited\u001b]8;;https://evil.example\u0007 here\u001b]8;;\u0007'],
      ['--note', 'Invited \u202eexe.txt'],
      ['--by', 'kim\u0085'],
    ]) {
      expect(await run(['done', invite, ...argv]), argv.join(' ')).toBe(2);
      expect(io.err[0], argv.join(' ')).toMatch(/is invalid\. the text contains a/);
    }
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, invite));
    expect(row).toMatchObject({ handledAt: null, handledBy: null, handledNote: null });
    expect(await run(['done', invite, '--by', 'Kim Lee', '--note', 'Invited to cohort 3']), io.err.join('\n')).toBe(0);
  });

  it('refuses a reason that holds an email address however it is written (full-width or small @, spaces around it), and keeps one with an @ but no domain', async () => {
    const id = await store(privacyRequest('Delete', 'ada@example.com'));
    for (const reason of ['Write to ada＠example.com', 'Write to ada @example.com', 'Write to ada @ example.com', 'Write to ada﹫example.com', 'Ｗrite to ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ']) {
      expect(await run(['respond', id, '--outcome', 'denied', '--reason', reason]), reason).toBe(2);
      expect(io.err[0], reason).toMatch(/the reason is kept after the request is erased: leave out any email address\.$/);
      expect(await run(['extend', id, '--reason', reason]), reason).toBe(2);
    }
    expect(await record(id)).toMatchObject({ respondedAt: null, extendedAt: null });
    // an @ without a domain after it is not an address
    expect(await run(['respond', id, '--outcome', 'denied', '--reason', 'Not confirmed by the due date @ 5pm (§7062).'])).toBe(0);
  });

  it('refuses verify once the request is answered or past its due date (exit 1), recording nothing', async () => {
    const answered = await store(privacyRequest('Delete', 'ada@example.com'));
    expect(await run(['respond', answered, '--outcome', 'denied', '--reason', 'We could not confirm the request.'])).toBe(0);
    expect(await run(['verify', answered])).toBe(1);
    expect(io.err).toEqual([expect.stringMatching(new RegExp(`^request ${answered} was already answered on \\S+ \\(denied\\): there is nothing left to verify it for$`))]);
    expect((await record(answered)).verifiedAt).toBeNull();

    const late = await store(privacyRequest('Access/Know', 'lin@example.com'));
    const due = (await record(late)).dueAt;
    expect(await run(['verify', late], due)).toBe(1);
    expect(io.err).toEqual([`request ${late} was due on ${due.toISOString().slice(0, 10)}: verify records an identity check before the due date; answer it with respond`]);
    expect((await record(late)).verifiedAt).toBeNull();
    expect(await run(['verify', late], new Date(due.getTime() - 1))).toBe(0);
    expect((await record(late)).verifiedBy).toBe('team');
  });

  it('answers invite requests with done only, and privacy requests with respond and extend only', async () => {
    const invite = await store(submissionBody());
    expect(await run(['respond', invite, '--outcome', 'complied'])).toBe(2);
    expect(await run(['extend', invite, '--reason', 'x'])).toBe(2);
    expect(io.err[0]).toBe(`request ${invite} is an invite request: mark it handled with done`);
  });

  it('lists each privacy request\'s verification state; an opt-out alone needs none', async () => {
    const optOut = await store(privacyRequest('Opt-Out', 'opt@example.com'));
    const del = await store(privacyRequest('Delete', 'del@example.com'));
    await database.db.update(privacyRecords).set({ verifiedAt: new Date(), verifiedBy: 'team' }).where(eq(privacyRecords.id, del));
    const know = await store(privacyRequest('Access/Know', 'know@example.com'));
    expect(await run(['list', '--json', '--kind', 'privacy'])).toBe(0);
    const listed = JSON.parse(io.out[0]!) as Array<{ id: string; verification: string }>;
    expect(Object.fromEntries(listed.map((r) => [r.id, r.verification]))).toEqual({ [optOut]: 'not needed', [del]: 'verified', [know]: 'unverified' });
  });

  it('shows the whole history; after erase, the record of 11 CCR §7101 is kept and shown, with nothing personal', async () => {
    const id = await store(privacyRequest('Delete', 'Ada@Example.com'));
    await database.db.update(privacyRecords).set({ confirmationSentAt: new Date(), verifiedAt: new Date(), verifiedBy: 'team' }).where(eq(privacyRecords.id, id));
    expect(await run(['extend', id, '--reason', 'Backups are being searched.'])).toBe(0);
    expect(await run(['respond', id, '--outcome', 'complied'])).toBe(0);
    expect(await run(['show', id])).toBe(0);
    const shown = JSON.parse(io.out[0]!) as { history: Array<{ event: string }> };
    expect(shown.history.map((h) => h.event)).toEqual(['received', 'confirmation sent', 'verified', 'extended', 'responded']);

    // The outcome mail is still in the outbox: erasing now would delete it unsent.
    expect(await run(['erase', '--email', 'Ada@example.com'])).toBe(1);
    expect(io.err[0]).toMatch(/^\d+ mail\(s\) to Ada@example.com not sent yet/);
    expect(await database.db.select().from(submissions).where(eq(submissions.id, id))).toHaveLength(1);
    await database.db.execute(sql`update deliveries set delivered_at = now() where submission_id = ${id}`);
    expect(await run(['erase', '--email', 'Ada@EXAMPLE.com'])).toBe(0);

    expect(await run(['show', id])).toBe(0);
    const kept = JSON.parse(io.out[0]!) as { erased: boolean; history: Array<{ event: string; outcome?: string }> };
    expect(kept.erased).toBe(true);
    expect(kept.history.map((h) => h.event)).toEqual(['received', 'confirmation sent', 'verified', 'extended', 'responded']);
    expect(kept.history.at(-1)!.outcome).toBe('complied');
    // nothing personal; the id is a random UUID, whose hex digits may spell "ada"
    expect(io.out[0]!.replaceAll(id, '')).not.toMatch(/ada|grace|hopper/i);
  });
});

describe('the mail of respond and extend, through a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let smtpPort: number;
  const received = () => smtp.received.map((r) => r.mail);
  beforeAll(async () => {
    smtpPort = await freePort();
    smtp = await smtpServer(smtpPort);
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('respond --attach-subject mails the outcome with the JSON; extend mails the notice with the new date and the reason', async () => {
    const config = testConfig(await writeStandInSite());
    const server = await startTestServer({ ...config, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}` } }, createLogger('silent'));
    try {
      const { io, run } = teamCli(() => server.database);
      const post = async (body: SubmissionBody) => {
        const response = await fetch(`${server.url}${SUBMISSIONS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return ((await response.json()) as { id: string }).id;
      };
      const know = await post(privacyRequest('Access/Know, Data Portability', 'lin@example.com'));
      const slow = await post(privacyRequest('Delete', 'mo@example.com'));
      await until(() => smtp.received.length === 2); // the two confirmations

      await server.database.db.update(privacyRecords).set({ verifiedAt: new Date(), verifiedBy: 'team' }).where(eq(privacyRecords.id, know));
      expect(await run(['respond', know, '--outcome', 'complied', '--attach-subject'])).toBe(0);
      expect(await run(['extend', slow, '--reason', 'Our backups take two weeks to search.'])).toBe(0);
      await until(() => smtp.received.length === 4);

      const outcome = received().find((m) => m.subject === 'Our answer to your privacy request')!;
      expect(outcome.to && !Array.isArray(outcome.to) ? outcome.to.text : '').toBe('lin@example.com');
      expect(outcome.text).toContain('We have done what you asked.');
      expect(outcome.attachments).toHaveLength(1);
      expect(outcome.attachments[0]!.filename).toBe('sonde-personal-information.json');
      const data = JSON.parse(outcome.attachments[0]!.content.toString('utf8')) as { email: string; requests: Array<{ id: string }> };
      expect(data.email).toBe('lin@example.com');
      expect(data.requests.map((r) => r.id)).toEqual([know]);

      const notice = received().find((m) => m.subject === 'We need more time to answer your privacy request')!;
      const [rec] = await server.database.db.select().from(privacyRecords).where(eq(privacyRecords.id, slow));
      const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(rec!.dueAt);
      expect(notice.text).toContain(`We will answer by ${long}`);
      expect(notice.text).toContain('Why: Our backups take two weeks to search.');
      expect(notice.replyTo?.text).toBe('privacy@sonde.dev');
      void io;
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('the data attached for a requester holds their requests, fields and history; not the team\'s user names, notes or outbox rows', async () => {
    const config = testConfig(await writeStandInSite());
    const server = await startTestServer({ ...config, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}` } }, createLogger('silent'));
    try {
      const { run } = teamCli(() => server.database, { user: 'root' });
      const response = await fetch(`${server.url}${SUBMISSIONS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(privacyRequest('Access/Know, Data Portability', 'noor@example.com')),
      });
      const { id } = (await response.json()) as { id: string };
      await until(() => received().some((m) => m.subject === 'We received your privacy request' && m.to && !Array.isArray(m.to) && m.to.text === 'noor@example.com'));
      // the SMTP server has the confirmation before the sender records it sent: wait for the record, as
      // the team would, so that the history's order is the order of the events
      await until(async () => {
        const [record] = await server.database.db.select().from(privacyRecords).where(eq(privacyRecords.id, id));
        return record?.confirmationSentAt != null;
      });
      expect(await run(['verify', id])).toBe(0);
      expect(await run(['respond', id, '--outcome', 'complied', '--attach-subject'])).toBe(0);
      const outcomeMail = () => received().find((m) => m.subject === 'Our answer to your privacy request' && m.to && !Array.isArray(m.to) && m.to.text === 'noor@example.com');
      await until(() => outcomeMail() !== undefined);
      const outcome = outcomeMail();
      const text = outcome!.attachments[0]!.content.toString('utf8');
      const data = JSON.parse(text) as { email: string; requests: Array<Record<string, unknown> & { data: Record<string, unknown>; history: Array<Record<string, string>> }> };
      // none of the team's bookkeeping
      expect(text).not.toMatch(/root|handledBy|handledNote|respondedBy|idempotencyKey|bodySha256|clientKey|notifications|deliveries|attempts|lockedUntil|lastError/);
      expect(data.email).toBe('noor@example.com');
      expect(data.requests).toHaveLength(1);
      const [request] = data.requests;
      expect(request).toMatchObject({ id, kind: 'privacy', receivedAt: expect.any(String), dueAt: expect.any(String), handledAt: expect.any(String) });
      expect(request!.data).toMatchObject({ fullName: 'Grace Hopper', workEmail: 'noor@example.com', clientIP: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' });
      expect(request!.history.map((event) => event.event)).toEqual(expect.arrayContaining(['received', 'verified', 'responded']));
      expect(request!.history.at(-1)).toEqual({ event: 'responded', at: expect.any(String), outcome: 'complied', reason: '' });
      expect(Object.keys(data).sort()).toEqual(['email', 'requests']);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

/** Whether `promise` is still pending after `ms`: a command waiting on a lock another session holds. */
async function stillWaitingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(pending), ms))])) === pending;
}

describe.each(testEngines().filter((engine) => engine.name === 'PostgreSQL'))('team commands against other sessions on $name', (engine) => {
  let database: Database;
  let other: postgres.Sql;
  const { io, run } = teamCli(() => database);
  beforeEach(async () => {
    database = await engine.open();
    other = postgres((engine.location() as { url: string }).url, { max: 1, onnotice: () => {} });
  });
  afterEach(async () => {
    await other.end();
    await database.close();
  });

  /**
   * Runs `work` in a transaction of the other session and resolves once `work` is done, with that
   * transaction still open (its locks held) until `release()`; `ended` settles as it commits. Released at
   * the test's end in any case, so that a failed expectation does not leave the other session waiting.
   */
  async function otherSessionHolds(work: (tx: postgres.TransactionSql) => Promise<unknown>) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    onTestFinished(() => release());
    let done!: () => void;
    const isDone = new Promise<void>((resolve) => (done = resolve));
    const ended = other.begin(async (tx) => {
      await work(tx);
      done();
      await held;
    });
    await Promise.race([isDone, ended]);
    return { release, ended };
  }

  it('a command that writes waits for another terminal\'s command (the team write lock) and decides after it', async () => {
    const id = await storeSubmission(database.db, submissionBody());
    const otherCommand = await otherSessionHolds((tx) => tx`select pg_advisory_xact_lock(${TEAM_WRITE_LOCK_ID}::bigint)`);
    const done = run(['done', id, '--note', 'Invited to cohort 3']);
    expect(await stillWaitingAfter(done, 500)).toBe(true);
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row!.handledAt).toBeNull();
    otherCommand.release();
    await otherCommand.ended;
    expect(await done).toBe(0);
    expect(io.out[0]).toMatch(/waitlisted by/);
  });

  it('respond decides on the privacy record as another session commits it (for update), never on a stale copy', async () => {
    const id = await storeSubmission(database.db, privacyRequest('Access/Know', 'lin@example.com'), { mail: { requester: true, team: false } });
    // the verification link, confirmed by the requester while the team answers
    const verifying = await otherSessionHolds((tx) => tx`update privacy_records set verified_at = now(), verified_by = 'link' where id = ${id}`);
    const respond = run(['respond', id, '--outcome', 'complied', '--attach-subject']);
    expect(await stillWaitingAfter(respond, 500)).toBe(true);
    verifying.release();
    await verifying.ended;
    expect(await respond).toBe(0);
    const [record] = await database.db.select().from(privacyRecords).where(eq(privacyRecords.id, id));
    expect(record).toMatchObject({ verifiedBy: 'link', outcome: 'complied' });
  });
});

