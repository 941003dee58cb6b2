// @vitest-environment node
// Mail to requesters and the team, through the outbox, to a real SMTP server in this process
// (smtp-server), or as .eml files when no SMTP server is set.
import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import type { ServerConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { deliveries, erasures, mailQuota, privacyRecords, privacyVerifications, submissions } from '../../server/db/schema.ts';
import { MAIL_CONNECT_TIMEOUT_MS, MAIL_DELIVERY_DEADLINE_MS, MAIL_GREETING_TIMEOUT_MS, MAIL_LIMITS, MAIL_REPLY_TIMEOUT_MS } from '../../server/limits.ts';
import { MAIL_DIR_MODE, MAIL_FILE_MODE, MAIL_TIMEOUTS, mailChannel, type MailTimeouts } from '../../server/outbox/mail.ts';
import { teamNewRequest, truncateAtGrapheme } from '../../server/outbox/messages/teamNewRequest.ts';
import { TEAM_SUBJECT_MAX_LENGTH } from '../../server/limits.ts';
import type { Delivery } from '../../server/outbox/channel.ts';
import { startOutbox } from '../../server/outbox/sender.ts';
import { issueVerificationToken } from '../../server/db/verificationLinks.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../support/server.ts';
import { eraseSubject, purgeExpired } from '../../server/db/retention.ts';
import { addressOf, mailboxOf, sha256Hex } from '../../server/db/mailbox.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { acceptSubmission, acceptSubmissions, type AcceptSettings } from '../../server/db/submissions.ts';
import { freePort, smtpServer, until } from '../support/mailServer.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';

let distDir: string;
const cleanup = cleanupAfterEach();
beforeAll(async () => {
  distDir = await writeStandInSite();
});

/** The mail directory of the server {@link start} started last. */
let mailDir = '';

async function start(overrides: Partial<ServerConfig['mail']> = {}): Promise<RunningServer> {
  const config = testConfig(distDir);
  mailDir = config.mail.emlDir;
  const server = await startTestServer({ ...config, mail: { ...config.mail, ...overrides } }, createLogger('silent'));
  cleanup.push(() => server.stop());
  return server;
}

async function post(server: RunningServer, body: SubmissionBody): Promise<string> {
  const response = await fetch(`${server.url}${SUBMISSIONS_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The outbox rows of the mail channel, oldest first. */
const mailRows = (server: RunningServer) =>
  server.database.db.select().from(deliveries).where(sql`${deliveries.channel} = 'mail'`).orderBy(deliveries.createdAt);

describe('mail through a real SMTP server', () => {
  it('acknowledges an invite request to its work email and tells the team, each once, with its own Message-ID', async () => {
    const port = await freePort();
    const smtp = await smtpServer(port);
    cleanup.push(smtp.close);
    const server = await start({ smtpUrl: `smtp://127.0.0.1:${port}`, teamEmail: 'team@sonde.dev' });
    const id = await post(server, submissionBody({ workEmail: 'Ada@Example.com' }));
    await until(() => smtp.received.length === 2);

    const ack = smtp.received.find((r) => r.to.includes('Ada@example.com'))!;
    expect(ack.from).toBe('hello@sonde.dev');
    expect(ack.mail.subject).toBe('We received your request for a Sonde invite');
    expect(ack.mail.headers.get('auto-submitted')).toBe('auto-generated');
    const rows = await mailRows(server);
    const ackRow = rows.find((row) => row.message === 'invite-acknowledgment')!;
    expect(ack.mail.messageId).toBe(`<${ackRow.id}@sonde.dev>`);
    expect(ack.mail.text).toContain('1. We review your request.');
    expect(ack.mail.text).toContain('3. You join a cohort.');
    expect(ack.mail.text).toContain('Applications are processed on a rolling basis.');
    expect(ack.mail.html).toContain('<li><strong>We reach out when ready.</strong>');

    const team = smtp.received.find((r) => r.to.includes('team@sonde.dev'))!;
    expect(team.mail.subject).toBe('New invite request: Ada Lovelace (CTO, Analytical Ltd) — 50M queries/month');
    expect(team.mail.text).toContain(`npm run requests -- show ${id}`);
    expect(team.mail.replyTo?.text).toBe('Ada@example.com');
    await until(async () => (await mailRows(server)).every((row) => row.deliveredAt !== null));
  });

  it('confirms a privacy request as 11 CCR §7021(a) asks: date received, types, due date, how it is processed, Reply-To the privacy address', async () => {
    const port = await freePort();
    const smtp = await smtpServer(port);
    cleanup.push(smtp.close);
    const server = await start({ smtpUrl: `smtp://127.0.0.1:${port}` });
    const body = privacyRequestBody();
    body.data.useCaseDescription = 'CCPA Privacy Rights Request\nRequest types: Delete, Opt-Out, <b>Fake</b>\nDetails: Please hurry';
    await post(server, body);
    await until(() => smtp.received.length === 1);
    const [confirmation] = smtp.received;
    const [row] = await server.database.db.select().from(submissions);
    const long = (date: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
    expect(confirmation!.to).toEqual(['Grace@example.com']); // nodemailer writes the domain in lower case
    expect(confirmation!.mail.subject).toBe('We received your privacy request');
    expect(confirmation!.mail.replyTo?.text).toBe('privacy@sonde.dev');
    const text = confirmation!.mail.text!;
    expect(text).toContain(`We received your privacy request on ${long(row!.receivedAt)}.`);
    expect(text).toContain('Request types: Delete, Opt-Out\n'); // only the form's own labels
    expect(text).toContain(`Response due by: ${long(row!.dueAt!)}`);
    expect(text).toContain('we confirm that it is yours');
    expect(text).toContain('An opt-out of sale/sharing needs no verification');
    expect(text).toContain('within 45 days of receipt');
    expect(text).not.toContain('Fake');
    expect(text).not.toContain('Please hurry');
    // 11 CCR §7101: the record keeps when the confirmation went out
    await until(async () => (await server.database.db.select().from(privacyRecords))[0]?.confirmationSentAt != null);
  });

  it('gives up at once on a recipient the SMTP server refuses (550), and no address reaches the log or last_error', async () => {
    const port = await freePort();
    const smtp = await smtpServer(port, true);
    cleanup.push(smtp.close);
    const lines: string[] = [];
    const config = testConfig(distDir);
    const server = await startTestServer(
      { ...config, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${port}` } },
      createLogger('info', { write: (line: string) => void lines.push(line) }),
    );
    cleanup.push(() => server.stop());
    await post(server, submissionBody({ workEmail: 'ada.private@example.com' }));
    await until(async () => (await mailRows(server))[0]?.failedAt != null);
    const [row] = await mailRows(server);
    expect(row).toMatchObject({ deliveredAt: null, attempts: 1, lastError: 'PermanentDeliveryError: SMTP 550 after RCPT TO (EENVELOPE)' });
    expect(lines.join('\n')).toContain('delivery refused for good');
    expect(lines.join('\n')).not.toMatch(/ada\.private|example\.com/);
  });

  it('never echoes the visitor\'s free text to the requester: a name with a URL and <script>, a company, details', async () => {
    const port = await freePort();
    const smtp = await smtpServer(port);
    cleanup.push(smtp.close);
    const server = await start({ smtpUrl: `smtp://127.0.0.1:${port}` });
    const hostile = {
      fullName: 'Win a prize at https://evil.example <script>alert(1)</script>',
      companyName: 'Click https://evil.example/login',
      useCaseDescription: 'Reset your password at https://evil.example',
      notes: 'Call +1 555 0100 now',
    };
    await post(server, submissionBody({ ...hostile, workEmail: 'victim@example.com' }));
    const privacy = privacyRequestBody();
    privacy.data.fullName = hostile.fullName;
    privacy.data.workEmail = 'victim2@example.com';
    privacy.data.useCaseDescription = `CCPA Privacy Rights Request\nRequest types: Delete\nDetails: ${hostile.useCaseDescription}`;
    await post(server, privacy);
    await until(() => smtp.received.length === 2);
    for (const { mail } of smtp.received) {
      const everything = `${mail.subject}\n${mail.text}\n${String(mail.html)}\n${JSON.stringify([...mail.headers])}`;
      for (const piece of ['evil.example', '<script>', 'alert(1)', 'prize', '555 0100']) expect(everything).not.toContain(piece);
    }
  });

  it('delivers once with the same Message-ID after the SMTP server was down, then back', async () => {
    const port = await freePort();
    const server = await start({ smtpUrl: `smtp://127.0.0.1:${port}` });
    await post(server, submissionBody());
    await until(async () => (await mailRows(server))[0]?.lastError != null);
    const [failed] = await mailRows(server);
    expect(failed!.deliveredAt).toBeNull();
    const smtp = await smtpServer(port); // back on the same port
    cleanup.push(smtp.close);
    await until(async () => (await mailRows(server))[0]?.deliveredAt != null);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.mail.messageId).toBe(`<${failed!.id}@sonde.dev>`);
    expect((await mailRows(server))[0]!.attempts).toBeGreaterThanOrEqual(2);
  });
});

describe('the SMTP time-outs of RFC 5321 §4.5.3.2, each at its boundary (shortened to scale)', () => {
  const settings = (port: number) => ({ smtpUrl: `smtp://127.0.0.1:${port}`, emlDir: '/nonexistent', from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined });
  const delivery = (): Delivery => ({
    id: '00000000-0000-4000-8000-00000000000a',
    channel: 'mail',
    message: 'invite-acknowledgment',
    event: null,
    payload: null,
    createdAt: new Date(),
    attachSubject: false,
    record: null,
    attempts: 1,
    submissionId: '00000000-0000-4000-8000-00000000000b',
    kind: 'invite',
    email: 'ada@example.com',
    receivedAt: new Date(),
    dueAt: null,
    body: submissionBody({ workEmail: 'ada@example.com' }),
    covered: [],
    rendered: null,
  });
  const never = new AbortController().signal;
  const channelTo = (port: number, timeouts: Partial<MailTimeouts>) =>
    mailChannel(settings(port), () => 'https://sonde.dev', async () => ({}), async () => null, { timeouts });
  /** A server on a free port that accepts a connection and, after `delayMs` (never, for null), passes it to `target`. */
  async function slowServer(target: number, delayMs: number | null) {
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      if (delayMs === null) return;
      setTimeout(() => {
        const upstream = connect(target, '127.0.0.1');
        upstream.on('error', () => socket.destroy());
        socket.pipe(upstream).pipe(socket);
      }, delayMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('are the protocol\'s: the greeting 5 min, any reply (the final reply to DATA) 10 min, one delivery 15 min', () => {
    expect(MAIL_GREETING_TIMEOUT_MS).toBe(5 * 60_000); // §4.5.3.2.1
    expect(MAIL_REPLY_TIMEOUT_MS).toBe(10 * 60_000); // §4.5.3.2.6, the longest
    expect(MAIL_CONNECT_TIMEOUT_MS).toBe(60_000);
    expect(MAIL_TIMEOUTS).toEqual({ connectMs: MAIL_CONNECT_TIMEOUT_MS, greetingMs: MAIL_GREETING_TIMEOUT_MS, replyMs: MAIL_REPLY_TIMEOUT_MS });
    expect(MAIL_DELIVERY_DEADLINE_MS).toBe(15 * 60_000);
    expect(MAIL_DELIVERY_DEADLINE_MS).toBeGreaterThanOrEqual(MAIL_REPLY_TIMEOUT_MS + MAIL_GREETING_TIMEOUT_MS);
    expect(mailChannel(settings(25), () => '', async () => ({}), async () => null).deadlineMs).toBe(MAIL_DELIVERY_DEADLINE_MS);
  });

  it('greeting: a server that greets within greetingMs is used, one that never does is given up on at greetingMs', async () => {
    const greetingMs = 600;
    const target = await freePort();
    const smtp = await smtpServer(target);
    const late = await slowServer(target, greetingMs / 3);
    const silent = await slowServer(target, null);
    try {
      expect(await channelTo(late.port, { greetingMs }).deliver(delivery(), never)).toBe('sent');
      expect(smtp.received).toHaveLength(1);
      const started = performance.now();
      await expect(channelTo(silent.port, { greetingMs }).deliver(delivery(), never)).rejects.toThrow(/^SMTP connection failed/);
      expect(performance.now() - started).toBeGreaterThanOrEqual(greetingMs - 50);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await Promise.all([late.close(), silent.close(), smtp.close()]);
    }
  });

  it('reply: a final reply to DATA within replyMs is a delivery, one later is a failure (the connection closed)', async () => {
    const replyMs = 800;
    for (const [dataDelayMs, outcome] of [[replyMs / 2, 'sent'], [replyMs * 2, 'failed']] as const) {
      const port = await freePort();
      const smtp = await smtpServer(port, { dataDelayMs });
      try {
        const result = await channelTo(port, { replyMs }).deliver(delivery(), never).then(
          (sent) => sent,
          (error: Error) => `failed: ${error.message}`,
        );
        if (outcome === 'sent') expect(result).toBe('sent');
        else expect(result).toMatch(/^failed: SMTP connection failed \(ETIMEDOUT\)/);
        await until(() => smtp.sessions.every((session) => session.closed));
      } finally {
        await smtp.close();
      }
    }
  });
});

describe(`the team's subject, at most TEAM_SUBJECT_MAX_LENGTH (${TEAM_SUBJECT_MAX_LENGTH}) UTF-16 units`, () => {
  const subjectFor = (fullName: string) =>
    teamNewRequest({ submissionId: 'id', kind: 'invite', data: submissionBody({ fullName }).data, receivedAt: new Date(), dueAt: null }).subject;
  const family = '👩‍👩‍👧‍👦'; // four emoji joined by ZWJ: 11 UTF-16 units, one grapheme

  it('is cut at a grapheme boundary (Intl.Segmenter): an emoji ZWJ sequence across the cut is left out whole, never split', () => {
    const whole = subjectFor('a');
    const prefix = whole.slice(0, whole.indexOf('a (')); // `New invite request: `
    const name = 'a'.repeat(TEAM_SUBJECT_MAX_LENGTH - 2 - prefix.length) + family; // the emoji starts at unit 148
    const subject = subjectFor(name);
    expect(subject).not.toMatch(/\p{Surrogate}/u); // no lone surrogate
    expect(subject).toBe(`${prefix}${'a'.repeat(TEAM_SUBJECT_MAX_LENGTH - 2 - prefix.length)}…`);
    expect(subject.length).toBeLessThanOrEqual(TEAM_SUBJECT_MAX_LENGTH);
    // a family that ends right at the cut is kept whole
    const fits = 'a'.repeat(TEAM_SUBJECT_MAX_LENGTH - 1 - prefix.length - family.length) + family + 'b'.repeat(20);
    expect(subjectFor(fits)).toBe(`${prefix}${fits.slice(0, fits.indexOf('b'))}…`);
  });

  it(`keeps a subject of exactly ${TEAM_SUBJECT_MAX_LENGTH} units whole, and cuts one of ${TEAM_SUBJECT_MAX_LENGTH + 1}`, () => {
    const suffixLength = subjectFor('a').length - 1;
    const exact = subjectFor('a'.repeat(TEAM_SUBJECT_MAX_LENGTH - suffixLength));
    expect(exact).toHaveLength(TEAM_SUBJECT_MAX_LENGTH);
    expect(exact.endsWith('…')).toBe(false);
    const over = subjectFor('a'.repeat(TEAM_SUBJECT_MAX_LENGTH + 1 - suffixLength));
    expect(over).toHaveLength(TEAM_SUBJECT_MAX_LENGTH);
    expect(over.endsWith('…')).toBe(true);
    expect(truncateAtGrapheme(family.repeat(3), family.length * 2)).toBe(`${family}…`);
  });
});

describe('mail without an SMTP server', () => {
  it('writes each message whole as <delivery id>.eml (RFC 5322, CRLF) in the mail directory', async () => {
    const server = await start();
    await post(server, privacyRequestBody());
    await until(async () => (await mailRows(server))[0]?.deliveredAt != null);
    const [row] = await mailRows(server);
    expect(await readdir(mailDir)).toEqual([`${row!.id}.eml`]);
    const raw = await readFile(`${mailDir}/${row!.id}.eml`, 'utf8');
    expect(raw).toContain(`Message-ID: <${row!.id}@sonde.dev>\r\n`);
    expect(raw).toContain('To: Grace@example.com\r\n');
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('We received your privacy request');
    expect(parsed.text).toContain('Request types: Access/Know, Delete'); // in form order
    // a file is not mail: the record does not say a confirmation was sent
    expect((await server.database.db.select().from(privacyRecords))[0]!.confirmationSentAt).toBeNull();

    // erase takes the person's .eml files with their requests
    const code = await teamCli(() => server.database, { mailDir }).run(['erase', '--email', 'Grace@EXAMPLE.com']);
    expect(code).toBe(0);
    expect(await readdir(mailDir)).toEqual([]);
  });

  it('writes the .eml files readable by the server\'s user only (0600), in a directory of its own (0700), even one made 0755 before', async () => {
    const server = await start();
    await mkdir(mailDir, { recursive: true, mode: 0o755 });
    await chmod(mailDir, 0o755);
    await post(server, privacyRequestBody());
    await until(async () => (await mailRows(server))[0]?.deliveredAt != null);
    const [row] = await mailRows(server);
    expect((await stat(`${mailDir}/${row!.id}.eml`)).mode & 0o777).toBe(MAIL_FILE_MODE);
    expect(MAIL_FILE_MODE).toBe(0o600);
    expect((await stat(mailDir)).mode & 0o777).toBe(MAIL_DIR_MODE);
    expect(MAIL_DIR_MODE).toBe(0o700);
  });
});

describe.each(testEngines())('how much mail one address gets on $name', (engine) => {
  let database: Database;
  afterEach(async () => {
    await database?.close();
  });
  const store = (body: SubmissionBody) => storeSubmission(database.db, body, { mail: { requester: true, team: true } });
  const count = async (message: string) =>
    (await database.db.select().from(deliveries).where(sql`${deliveries.message} = ${message}`)).length;
  const age = (message: string, ms: number) =>
    database.db.execute(sql`update mail_quota set sent_at = now() - make_interval(secs => ${ms / 1000}) where message = ${message}`);

  it(`acknowledges one invite request per address per 24 h (any case); every request is stored and told to the team`, async () => {
    database = await engine.open();
    await store(submissionBody({ workEmail: 'ada@example.com' })); // each stored, or store throws
    await store(submissionBody({ workEmail: 'ADA@example.com' }));
    expect(await count('invite-acknowledgment')).toBe(1);
    expect(await count('team-new-request')).toBe(2);
    expect(MAIL_LIMITS.windowMs).toBe(24 * 60 * 60_000);
    await age('invite-acknowledgment', MAIL_LIMITS.windowMs - 1_000); // still inside the window
    await store(submissionBody({ workEmail: 'ada@example.com' }));
    expect(await count('invite-acknowledgment')).toBe(1);
    await age('invite-acknowledgment', MAIL_LIMITS.windowMs); // the window has passed
    await store(submissionBody({ workEmail: 'ada@example.com' }));
    expect(await count('invite-acknowledgment')).toBe(2);
    await store(submissionBody({ workEmail: 'grace@example.com' })); // another address
    expect(await count('invite-acknowledgment')).toBe(3);
    // erase takes what the limits counted of that person; purge what is older than the window
    const quota = async () => (await database.db.select().from(mailQuota)).map((q) => q.emailSha256);
    expect(await quota()).toContain(sha256Hex('ada@example.com'));
    await eraseSubject(database.db, 'ADA@example.com');
    expect(await quota()).not.toContain(sha256Hex('ada@example.com'));
    await purgeExpired(database.db, new Date(Date.now() + MAIL_LIMITS.windowMs + 1_000));
    expect(await quota()).toEqual([]);
  });

  const privacyTo = (email: string) => {
    const body = privacyRequestBody();
    body.data.workEmail = email;
    return body;
  };

  it('says which stored request wrote a delivery of its own (queued): only those give the sender something new to send', async () => {
    database = await engine.open();
    const accept = (body: SubmissionBody, settings: Pick<AcceptSettings, 'announce' | 'mail'>) =>
      acceptSubmission(database.db, { body, idempotencyKey: null, clientIp: '198.51.100.7', limitPerWindow: 1000, windowMs: 60_000, ...settings });
    const requester = { mail: { requester: true, team: false } };
    expect(MAIL_LIMITS.invitePerWindow).toBe(1);
    expect(await accept(submissionBody({ workEmail: 'ada@example.com' }), requester)).toMatchObject({ status: 'stored', queued: true });
    expect(await accept(submissionBody({ workEmail: 'ada@example.com' }), requester)).toMatchObject({ status: 'stored', queued: false });
    expect(await accept(submissionBody({ workEmail: 'ada@example.com' }), { mail: { requester: true, team: true } })).toMatchObject({ status: 'stored', queued: true });
    expect(await accept(submissionBody({ workEmail: 'ada@example.com' }), { announce: true })).toMatchObject({ status: 'stored', queued: true });
    expect(await accept(submissionBody({ workEmail: 'ada@example.com' }), {})).toMatchObject({ status: 'stored', queued: false });
    // a privacy request to a mailbox whose confirmation still waits joins it: no delivery of its own
    expect(await accept(privacyTo('grace@example.com'), requester)).toMatchObject({ status: 'stored', queued: true });
    expect(await accept(privacyTo('grace@example.com'), requester)).toMatchObject({ status: 'stored', queued: false });
    expect(await count('invite-acknowledgment')).toBe(1);
    expect(await count('privacy-confirmation')).toBe(1);
  });

  /** A sender for `database` to a real SMTP server: `send()` delivers what is due now. */
  async function sender() {
    const port = await freePort();
    const smtp = await smtpServer(port);
    cleanup.push(smtp.close);
    const settings = { smtpUrl: `smtp://127.0.0.1:${port}`, emlDir: '/nonexistent', from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: 'team@sonde.dev' };
    const channel = mailChannel(settings, () => 'https://sonde.dev', async () => ({}), (requestId) => issueVerificationToken(database.db, requestId));
    const outbox = startOutbox({ db: database.db, channels: [channel], logger: createLogger('silent'), pollIntervalMs: 60_000 });
    cleanup.push(() => outbox.stop());
    return { smtp, send: () => outbox.runOnce() };
  }
  const storeRequester = (body: SubmissionBody) => storeSubmission(database.db, body, { mail: { requester: true, team: false } });
  const spellings = ['Ada.Lovelace@gmail.com', 'adalovelace+1@googlemail.com', 'ADA.LOVELACE@Gmail.com', 'a.d.a.lovelace+x@gmail.com', 'AdaLovelace@GoogleMail.com'];

  it(`counts one mailbox however it is spelled (case, +tag, Gmail's dots, googlemail.com): at most ${MAIL_LIMITS.privacyPerWindow} confirmations reach it per 24 h`, async () => {
    database = await engine.open();
    const { smtp, send } = await sender();
    for (const email of spellings) {
      await storeRequester(privacyTo(email));
      await send();
    }
    expect(smtp.received).toHaveLength(MAIL_LIMITS.privacyPerWindow);
    await storeRequester(submissionBody({ workEmail: 'ada.lovelace@gmail.com' }));
    await storeRequester(submissionBody({ workEmail: 'AdaLovelace+invite@googlemail.com' }));
    await send();
    expect(await count('invite-acknowledgment')).toBe(1);
    expect(spellings.map(mailboxOf)).toEqual(Array(spellings.length).fill('adalovelace@gmail.com'));
  });

  it("confirms the owner's own request at the owner's own address, with its link, after a stranger spent the mailbox's confirmations under other spellings: never in a mail to another spelling, and within one window", async () => {
    database = await engine.open();
    const { smtp, send } = await sender();
    const stranger: string[] = [];
    for (const email of spellings) {
      stranger.push(await storeRequester(privacyTo(email))); // the stranger, under many spellings
      await send();
    }
    const owner = await storeRequester(privacyTo('adalovelace@gmail.com'));
    const again = await storeRequester(privacyTo('adalovelace@gmail.com')); // the owner's second request joins the first's mail
    await send();
    expect(smtp.received).toHaveLength(MAIL_LIMITS.privacyPerWindow); // not one more within the window
    const waiting = await database.db
      .select()
      .from(deliveries)
      .where(sql`${deliveries.deliveredAt} is null and ${deliveries.message} = 'privacy-confirmation'`)
      .orderBy(deliveries.nextAttemptAt);
    // one mail per address, never a request of one address in another's mail
    expect(waiting.map((row) => row.covers ?? [row.submissionId])).toEqual([
      ...stranger.slice(MAIL_LIMITS.privacyPerWindow).map((id) => [id]),
      [owner, again],
    ]);
    // each takes the next slot, when a mail counted leaves the 24 h window: the owner's, the last, within one window
    const counted = await database.db.select().from(mailQuota).orderBy(mailQuota.sentAt).limit(MAIL_LIMITS.privacyPerWindow);
    expect(waiting.map((row) => row.nextAttemptAt.getTime())).toEqual(counted.map((row) => row.sentAt.getTime() + MAIL_LIMITS.windowMs));
    // a day on: the waiting confirmations go out, each to its own address
    await database.db.execute(sql`update mail_quota set sent_at = sent_at - make_interval(secs => ${MAIL_LIMITS.windowMs / 1000})`);
    await database.db.execute(sql`update deliveries set next_attempt_at = next_attempt_at - make_interval(secs => ${MAIL_LIMITS.windowMs / 1000})`);
    await send();
    // the first window's, one after another as they were sent; then the day's, due together and sent in any order
    const expected = spellings.map((email) => [addressOf(email)]).concat([['adalovelace@gmail.com']]);
    const window = MAIL_LIMITS.privacyPerWindow;
    expect(smtp.received.slice(0, window).map((mail) => mail.to)).toEqual(expected.slice(0, window));
    const inAnyOrder = (recipients: string[][]) => recipients.map((to) => to.join(', ')).sort();
    expect(inAnyOrder(smtp.received.slice(window).map((mail) => mail.to))).toEqual(inAnyOrder(expected.slice(window)));
    const last = smtp.received.find((mail) => mail.to.join(', ') === 'adalovelace@gmail.com')!.mail;
    expect(last.subject).toBe('We received your 2 privacy requests');
    // a link for each of the owner's requests, both to this very address (11 CCR §7060)
    const links = [...(last.text ?? '').matchAll(/#token=([A-Za-z0-9_-]{43})/g)].map((m) => sha256Hex(m[1]!));
    expect(links).toHaveLength(2);
    const issued = await database.db.select().from(privacyVerifications).where(sql`${privacyVerifications.requestId} in (${owner}, ${again})`);
    expect(issued.map((row) => row.tokenSha256).sort()).toEqual([...links].sort());
    expect(last.text).not.toContain('another spelling');
    for (const id of [owner, again]) {
      const [record] = await database.db.select().from(privacyRecords).where(sql`${privacyRecords.id} = ${id}`);
      expect(record!.confirmationSentAt).not.toBeNull(); // 11 CCR §7021(a), §7101
    }
  });

  it("subject and erase --email take exactly the address that asked, its domain in any case: not its +tag, dotted Gmail, googlemail.com or other-case spellings, which may be someone else's", async () => {
    database = await engine.open();
    const own = [await storeRequester(privacyTo('ada.lovelace@gmail.com')), await storeRequester(submissionBody({ workEmail: 'ada.lovelace@Gmail.COM' }))];
    const gmailSpellings = [
      await storeRequester(submissionBody({ workEmail: 'Ada.Lovelace@gmail.com' })), // the local part in another case
      await storeRequester(privacyTo('adalovelace@gmail.com')), // without the dots
      await storeRequester(privacyTo('ada.lovelace+x@gmail.com')), // a +tag
      await storeRequester(submissionBody({ workEmail: 'ada.lovelace@googlemail.com' })), // Gmail's other name
    ];
    const victim = await storeRequester(submissionBody({ workEmail: 'victim@corp.example' }));
    const tagged = await storeRequester(submissionBody({ workEmail: 'victim+eve@corp.example' }));
    const cli = teamCli(() => database);
    const found = async (email: string) => {
      expect(await cli.run(['subject', '--email', email])).toBe(0);
      return (JSON.parse(cli.io.out[0]!) as { requests: Array<{ id: string }> }).requests.map((r) => r.id).sort();
    };
    expect(await found('ada.lovelace@GMAIL.com')).toEqual([...own].sort());
    expect(await found('Ada.Lovelace@gmail.com')).toEqual([gmailSpellings[0]]);
    expect(await found('adalovelace@gmail.com')).toEqual([gmailSpellings[1]]);
    expect(await found('ada.lovelace+x@gmail.com')).toEqual([gmailSpellings[2]]);
    expect(await found('ada.lovelace@googlemail.com')).toEqual([gmailSpellings[3]]);
    expect(await found('victim+eve@corp.example')).toEqual([tagged]);
    expect(await found('victim@corp.example')).toEqual([victim]);

    // show labels the other spelling as what it is, apart from the requests of its own address
    expect(await cli.run(['show', tagged])).toBe(0);
    const shown = JSON.parse(cli.io.out[0]!) as { otherRequestsFromThisAddress: unknown[]; otherSpellingsMaybeSamePerson: Array<{ id: string; email: string }> };
    expect(shown.otherRequestsFromThisAddress).toEqual([]);
    expect(shown.otherSpellingsMaybeSamePerson).toMatchObject([{ id: victim, email: 'victim@corp.example' }]);
    expect(await cli.run(['erase', '--email', 'victim+eve@corp.example', '--force'])).toBe(0);
    expect(cli.io.out[0]).toMatch(/^erased 1 request of victim\+eve@corp\.example; .*; 1 request from other spellings of this mailbox .* left as they are/);
    expect(await cli.run(['erase', '--email', 'ada.lovelace@GMAIL.com', '--force'])).toBe(0);
    expect(cli.io.out[0]).toMatch(/^erased 2 requests of ada\.lovelace@gmail\.com; .*; 4 requests from other spellings of this mailbox/);
    const left = (await database.db.select().from(submissions)).map((r) => r.id).sort();
    expect(left).toEqual([...gmailSpellings, victim].sort());
    // the erasure record is the hash of the address erased; what the limits counted of its mailbox goes with it
    expect((await database.db.select().from(erasures)).map((e) => e.emailSha256).sort()).toEqual([sha256Hex('ada.lovelace@gmail.com'), sha256Hex('victim+eve@corp.example')].sort());
    const keys = (await database.db.select().from(mailQuota)).map((q) => q.emailSha256);
    expect(keys).not.toContain(sha256Hex('adalovelace@gmail.com'));
  });

  it('lets requests to one mailbox share the confirmation that still waits, instead of spending the limit', async () => {
    database = await engine.open();
    for (let i = 0; i < MAIL_LIMITS.privacyPerWindow + 2; i += 1) await store(privacyRequestBody());
    expect(await count('privacy-confirmation')).toBe(1);
    const [row] = await database.db.select().from(deliveries).where(sql`${deliveries.message} = 'privacy-confirmation'`);
    expect(row!.covers).toHaveLength(MAIL_LIMITS.privacyPerWindow + 2);
  });

  /** `n` privacy requests to `email` in one statement (one transaction), each from its own address. */
  let clients = 0;
  const storeMany = async (n: number, email: string) => {
    const inputs = Array.from({ length: n }, () => {
      const i = (clients += 1);
      return { body: privacyTo(email), idempotencyKey: null, clientIp: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` };
    });
    const outcomes = await acceptSubmissions(database.db, inputs, { limitPerWindow: 1, windowMs: 60_000, mail: { requester: true, team: false } });
    return outcomes.map((outcome) => (outcome instanceof Error || outcome.status !== 'stored' ? expect.fail(String(outcome)) : outcome.id));
  };
  const confirmations = () =>
    database.db.select().from(deliveries).where(sql`${deliveries.message} = 'privacy-confirmation'`).orderBy(deliveries.createdAt, deliveries.id);
  /** every request listed once: each delivery's own request, or the requests it covers */
  const listed = (rows: Array<{ submissionId: string | null; covers: string[] | null }>) => rows.flatMap((row) => row.covers ?? [row.submissionId!]).sort();

  it(`lists at most MAIL_LIMITS.requestsPerConfirmation (${MAIL_LIMITS.requestsPerConfirmation}) requests in one waiting confirmation: the next is one more mail at its time, not counted in the limit`, async () => {
    database = await engine.open();
    const full = await storeMany(MAIL_LIMITS.requestsPerConfirmation, 'grace@example.com');
    const [first, ...none] = await confirmations();
    expect(none).toEqual([]);
    expect(first!.covers).toEqual(full);
    const [next] = await storeMany(1, 'grace@example.com');
    const [same, overflow, ...more] = await confirmations();
    expect(more).toEqual([]);
    expect(same!.covers).toEqual(full);
    expect(overflow).toMatchObject({ submissionId: next, covers: null, nextAttemptAt: first!.nextAttemptAt });
    expect(await database.db.select().from(mailQuota)).toHaveLength(1);
  });

  it(`confirms every request of a flood to one mailbox whose limit is spent within one window: ${MAIL_LIMITS.requestsPerConfirmation} to a mail, all at the one slot`, async () => {
    database = await engine.open();
    // the mailbox's confirmations of this window are spent (sent just now)
    for (let i = 0; i < MAIL_LIMITS.privacyPerWindow; i += 1) {
      await database.db.insert(mailQuota).values({ emailSha256: sha256Hex(mailboxOf('grace@example.com')), message: 'privacy-confirmation' });
    }
    const [oldest] = await database.db.select().from(mailQuota).orderBy(mailQuota.sentAt).limit(1);
    const flood = await storeMany(2 * MAIL_LIMITS.requestsPerConfirmation + 1, 'grace@example.com');
    const rows = await confirmations();
    // written in one transaction: one created_at, so compared in any order
    expect(rows.map((row) => (row.covers ?? [row.submissionId]).length).sort((a, b) => b - a)).toEqual([MAIL_LIMITS.requestsPerConfirmation, MAIL_LIMITS.requestsPerConfirmation, 1]);
    expect(listed(rows)).toEqual([...flood].sort());
    // each waits for the slot when the oldest mail counted leaves the window, and no later
    for (const row of rows) expect(row.nextAttemptAt.getTime()).toBe(oldest!.sentAt.getTime() + MAIL_LIMITS.windowMs);
    expect(await database.db.select().from(mailQuota)).toHaveLength(MAIL_LIMITS.privacyPerWindow + 1);
  });
});
