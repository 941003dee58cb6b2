import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { RETENTION } from '#shared/policy';
import { privacyRequestTypesOf, submissionKind, type SubmissionBody, type SubmissionKind } from '#shared/submission';
import { rowsOf, type Db } from './database.ts';
import { erasures, mailQuota, notifications, privacyRecords, privacyVerifications, submissions } from './schema.ts';
import { MAIL_LIMITS } from '../limits.ts';

/** SHA-256 of a string, as 64 hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Domains of one mailbox service whose local parts ignore dots: Gmail's two names. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches: the one rule by which the per-mailbox mail limits ({@link MAIL_LIMITS})
 * count, `subject` and `erase` find a person, and requests to one person are told apart. Lower case; the
 * local part without its sub-address after the first `+` (RFC 5233); at gmail.com and googlemail.com
 * (one service, which ignores dots in the local part) without dots, at gmail.com. So
 * `Ada.Lovelace+x@googlemail.com` and `adalovelace@gmail.com` are one mailbox. Its SQL twin is
 * `mailbox_of` (server/db/migrations/0014_one_mailbox_one_message.sql), which `accept_submission` stores
 * as `submissions.mailbox`; a property test checks that both agree.
 * @param email - an address, any case, surrounding white space ignored
 * @returns the mailbox, an address in lower case; an input without `@` comes back lower-cased
 */
export function mailboxOf(email: string): string {
  const lowered = email.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  if (at < 0) return lowered;
  const local = lowered.slice(0, at).split('+')[0]!;
  const domain = lowered.slice(at + 1);
  return GMAIL_DOMAINS.has(domain) ? `${local.replaceAll('.', '')}@gmail.com` : `${local}@${domain}`;
}

/** What {@link acceptSubmission} did. */
export type AcceptOutcome =
  | { status: 'stored'; id: string; kind: SubmissionKind }
  /** the idempotency key is stored with this body: nothing new stored, not counted */
  | { status: 'replayed'; id: string }
  /** the idempotency key is stored with another body: nothing stored */
  | { status: 'conflict'; id: string }
  /** the client is past its rate limit: nothing stored */
  | { status: 'limited'; retryAfterSeconds: number };

/** One checked submission to accept, as the HTTP handler has it. */
export interface AcceptInput {
  body: SubmissionBody;
  /** the `Idempotency-Key` header, or null */
  idempotencyKey: string | null;
  /** the client as the rate limit counts it (its IPv4 address, or its IPv6 /64: server/http/clientAddress.ts); only its SHA-256 is stored */
  clientIp: string;
}

/** What holds for every submission of one call: the rate limit, and whether to write notifications. */
export interface AcceptSettings {
  /** submissions per client per window before `limited` */
  limitPerWindow: number;
  /** the rate limit's window, in ms (whole seconds) */
  windowMs: number;
  /** also write the webhook notification of each new row (server/outbox/) in the same statement */
  notify?: boolean;
  /**
   * also write the mail of each new row in the same statement: `requester`, the acknowledgment of an
   * invite request or the confirmation of a privacy request (within {@link MAIL_LIMITS}); `team`, one
   * message per stored request to `SONDE_TEAM_EMAIL`
   */
  mail?: { requester: boolean; team: boolean };
}

const acceptStatements = new WeakMap<Db, ReturnType<typeof prepareAcceptStatement>>();

/**
 * The statement of {@link acceptSubmissions}, prepared once per database: the whole batch is one JSON
 * array parameter, so the text never changes with the batch's size. Prepared, because postgres.js sends
 * an unprepared statement with parameters (every `db.execute`, every query not `.prepare`d) in two round
 * trips, describe then execute. Measured under load (20 clients, 10 s, PostgreSQL, one batch at a time):
 * 1,627–2,201 submissions/s unprepared, 2,512–3,686/s prepared.
 */
function prepareAcceptStatement(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return db
    .select({
      existing_id: sql<string | null>`a.existing_id`,
      existing_sha: sql<string | null>`a.existing_sha`,
      recent: sql<number | null>`a.recent`,
      retry_after: sql<number | null>`a.retry_after`,
      new_id: sql<string | null>`a.new_id`,
    })
    .from(
      sql`jsonb_array_elements(${p('batch')}::jsonb) with ordinality as i(item, n)
        cross join lateral accept_submission(
          i.item->>'key', i.item->>'client', ${p('windowSeconds')}::int, ${p('limit')}::int,
          i.item->>'kind', i.item->>'sha', i.item->>'email', i.item->'body',
          ${p('dueDays')}::int, ${p('notify')}::boolean,
          ${p('mail')}::boolean, ${p('teamMail')}::boolean, ${p('mailWindowSeconds')}::int,
          ${p('acknowledgmentLimit')}::int, ${p('confirmationLimit')}::int,
          array(select jsonb_array_elements_text(i.item->'types'))) a`,
    )
    .orderBy(sql`i.n`)
    .prepare('accept_submissions');
}

function acceptStatement(db: Db) {
  let statement = acceptStatements.get(db);
  if (!statement) acceptStatements.set(db, (statement = prepareAcceptStatement(db)));
  return statement;
}

/**
 * Accepts checked submissions in one statement, one transaction, one commit: each is passed, in
 * order, to the database function `accept_submission` (server/db/migrations/0014_one_mailbox_one_message.sql),
 * so nothing is half-written and a batch of n costs one round trip and one commit, not n. For each:
 * 1. when its idempotency key is already stored (by an earlier submission of the same batch too):
 *    nothing is written (`replayed`, or `conflict` when the body differs), and the repeat does not count
 *    against the rate limit;
 * 2. when the client (a SHA-256 of its IP) already has `limitPerWindow` submissions stored in the last
 *    `windowMs`: nothing is stored (`limited`, with the seconds until its oldest one leaves the window,
 *    ≥ 1). Counted in the database, so the limit holds across server instances and within a batch (two
 *    requests of one client in two batches committing at the same instant may both pass: the limit is a
 *    guard against floods, not a quota);
 * 3. otherwise the row is inserted with `kind` from the privacy mapping of spec §3 and, for a privacy
 *    request, `due_at` = received + 45 days (spec §9). Two requests racing on one key store one row.
 *    With it, a privacy request's record of 11 CCR §7101 (`privacy_records`), and its outbox rows: the
 *    webhook's, the team's mail, and the requester's mail within {@link MAIL_LIMITS} per mailbox
 *    ({@link mailboxOf}): an invite acknowledgment past the limit is left out; a privacy confirmation
 *    never is (11 CCR §7021(a)): it joins the mailbox's confirmation not yet claimed by a sender, or,
 *    past the limit, waits for the next slot, when the oldest mail counted leaves the window.
 * @returns one outcome per input, in the inputs' order; in the place of a submission whose outcome
 *   could not be read after the commit (a look-up failed), its Error: its row may be stored, so it must
 *   not be written again
 * @throws the driver's error when the statement fails: then nothing of the batch is stored, unless the
 *   connection broke during the commit (see {@link isRefusedByDatabase})
 */
export async function acceptSubmissions(
  db: Db,
  inputs: readonly AcceptInput[],
  settings: AcceptSettings,
): Promise<Array<AcceptOutcome | Error>> {
  if (inputs.length === 0) return [];
  const prepared = inputs.map((input) => ({
    key: input.idempotencyKey,
    client: sha256Hex(input.clientIp),
    kind: submissionKind(input.body.data),
    sha: sha256Hex(JSON.stringify(input.body)),
    email: input.body.data.workEmail.toLowerCase(),
    body: input.body,
    // the record of 11 CCR §7101 states the request types as the form's own labels, nothing else
    types: privacyRequestTypesOf(input.body.data.useCaseDescription),
  }));
  const rows = await acceptStatement(db).execute({
    batch: JSON.stringify(prepared),
    windowSeconds: settings.windowMs / 1000,
    limit: settings.limitPerWindow,
    dueDays: RETENTION.privacyResponseDays,
    notify: settings.notify ?? false,
    mail: settings.mail?.requester ?? false,
    teamMail: settings.mail?.team ?? false,
    mailWindowSeconds: MAIL_LIMITS.windowMs / 1000,
    acknowledgmentLimit: MAIL_LIMITS.invitePerWindow,
    confirmationLimit: MAIL_LIMITS.privacyPerWindow,
  });
  return Promise.all(
    prepared.map(async ({ key, kind, sha }, i): Promise<AcceptOutcome | Error> => {
      const row = rows[i];
      if (!row) return new Error(`the accept statement returned ${rows.length} rows for ${prepared.length} submissions`);
      const earlier = (id: string, existingSha: string | null): AcceptOutcome =>
        existingSha === sha ? { status: 'replayed', id } : { status: 'conflict', id };
      if (row.new_id) return { status: 'stored', id: row.new_id, kind };
      if (row.existing_id) return earlier(row.existing_id, row.existing_sha);
      if (row.recent !== null && row.recent >= settings.limitPerWindow) {
        return { status: 'limited', retryAfterSeconds: Number(row.retry_after ?? 1) };
      }
      // Within the limit, yet not inserted: another transaction stored this key meanwhile.
      try {
        const first = key ? await findByIdempotencyKey(db, key) : undefined;
        if (!first) return new Error('the submission was neither stored nor found under its idempotency key');
        return earlier(first.id, first.bodySha256);
      } catch (error) {
        return error as Error;
      }
    }),
  );
}

/**
 * True when the database answered a statement with an error (a SQLSTATE, on the error or the driver
 * error Drizzle wraps): the statement's transaction was rolled back, so none of it is stored. False for
 * a broken connection, after which a commit may or may not have happened.
 */
export function isRefusedByDatabase(error: unknown): boolean {
  return sqlStateOf(error) !== undefined;
}

/**
 * The SQLSTATE of a database's refusal (`22P05`, `23505`…), found on the error or any of its causes
 * (Drizzle wraps the driver's error); `undefined` for any other error (a broken connection: Node's
 * `EPIPE`, postgres.js's `CONNECTION_CLOSED`).
 */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    // SQLSTATE: five characters, its class first (digits, or F0, HV, P0, XX); Node's EPIPE is not one
    if (typeof code === 'string' && /^[0-9FHPX][0-9A-Z]{4}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Accepts one checked submission: {@link acceptSubmissions} with a batch of one.
 * @throws the driver's error when the database fails; the caller answers 500.
 */
export async function acceptSubmission(db: Db, input: AcceptInput & AcceptSettings): Promise<AcceptOutcome> {
  const [outcome] = await acceptSubmissions(db, [input], input);
  if (outcome instanceof Error) throw outcome;
  return outcome!;
}

/** The row stored under an idempotency key, if any. */
export async function findByIdempotencyKey(db: Db, key: string): Promise<{ id: string; bodySha256: string } | undefined> {
  const [row] = await db
    .select({ id: submissions.id, bodySha256: submissions.bodySha256 })
    .from(submissions)
    .where(eq(submissions.idempotencyKey, key));
  return row;
}

/**
 * Deletes every request stored under the mailbox of `email` ({@link mailboxOf}: any case, `+tag` or
 * Gmail spelling) and, in the same statement, keeps an erasure record: SHA-256 of the mailbox, the
 * time, the count. What a Delete request needs.
 * @returns how many requests were deleted (0 is recorded too: the request was carried out)
 */
export async function eraseSubject(db: Db, email: string): Promise<number> {
  const mailbox = mailboxOf(email);
  const result = await db.execute(sql`
    with gone as (delete from ${submissions} where mailbox = ${mailbox}::text returning 1),
    quota as (delete from ${mailQuota} where email_sha256 = ${sha256Hex(mailbox)}::text)
    insert into ${erasures} (email_sha256, submissions) select ${sha256Hex(mailbox)}::text, count(*)::int from gone
    returning submissions`);
  return Number(rowsOf<{ submissions: number }>(result)[0]?.submissions ?? 0);
}

/**
 * Deletes what the privacy policy's retention periods have passed at `now` (src/content/privacyPolicy.ts,
 * shared/policy.ts): invite requests received more than 18 months before, privacy-request records more
 * than 24 months before; and the verification links of privacy requests answered or past due.
 * @returns how many of each were deleted
 */
export async function purgeExpired(
  db: Db,
  now: Date,
): Promise<{ invite: number; privacy: number; records: number; verificationLinks: number; deliveryIds: string[] }> {
  const monthsBefore = (months: number) => sql`${now.toISOString()}::timestamptz - make_interval(months => ${months}::int)`;
  const expired = or(
    and(eq(submissions.kind, 'invite'), lt(submissions.receivedAt, monthsBefore(RETENTION.applicationMonths))),
    and(eq(submissions.kind, 'privacy'), lt(submissions.receivedAt, monthsBefore(RETENTION.privacyRequestRecordMonths))),
  );
  // the deliveries that go with them (the caller deletes their .eml files)
  const deliveries = await db.select({ id: notifications.id }).from(notifications).innerJoin(submissions, eq(submissions.id, notifications.submissionId)).where(expired);
  const gone = await db.delete(submissions).where(expired).returning({ kind: submissions.kind });
  // The records of 11 CCR §7101 outlive an erased request, not the 24 months.
  // what the per-address mail limits count is of no use after a day
  await db.delete(mailQuota).where(lt(mailQuota.sentAt, sql`${now.toISOString()}::timestamptz - make_interval(secs => ${MAIL_LIMITS.windowMs / 1000})`));
  // verification links that can no longer confirm anything: their request answered, or past its due date
  const spent = await db.execute(sql`
    delete from ${privacyVerifications} v using ${privacyRecords} r
    where r.id = v.request_id and (r.responded_at is not null or r.due_at <= ${now.toISOString()}::timestamptz)
    returning v.token_sha256`);
  const records = await db
    .delete(privacyRecords)
    .where(lt(privacyRecords.receivedAt, monthsBefore(RETENTION.privacyRequestRecordMonths)))
    .returning({ id: privacyRecords.id });
  return {
    invite: gone.filter((r) => r.kind === 'invite').length,
    privacy: gone.filter((r) => r.kind === 'privacy').length,
    records: records.length,
    verificationLinks: rowsOf(spent).length,
    deliveryIds: deliveries.map((d) => d.id),
  };
}

/** A stored row as the team's tools and the subject export show it: everything but the rate limit's IP hash and the checksum. */
export function storedView(row: typeof submissions.$inferSelect): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'clientKey' && key !== 'bodySha256'));
}

/**
 * Everything stored about one person, by the mailbox of an email ({@link mailboxOf}: any case, `+tag`
 * or Gmail spelling): every request with its metadata, and every
 * delivery the requests caused. What an Access/Know or Data Portability request is answered with
 * (`npm run requests -- subject`, and the attachment of `respond --attach-subject`).
 */
export async function subjectExport(db: Db, email: string): Promise<{ email: string; requests: Array<Record<string, unknown>>; notifications: unknown[] }> {
  const normalized = email.trim().toLowerCase();
  const rows = await db.select().from(submissions).where(eq(submissions.mailbox, mailboxOf(email))).orderBy(desc(submissions.receivedAt));
  const sent = await db
    .select({ notification: notifications })
    .from(notifications)
    .innerJoin(submissions, eq(submissions.id, notifications.submissionId))
    .where(eq(submissions.mailbox, mailboxOf(email)));
  // a mail not delivered yet is kept rendered, with a live verification link: not for the team's terminal
  return { email: normalized, requests: rows.map(storedView), notifications: sent.map(({ notification }) => ({ ...notification, rendered: undefined })) };
}

/** The ids of every delivery of the requests stored under the mailbox of `email` ({@link mailboxOf}): `erase` deletes their .eml files. */
export async function deliveryIdsOf(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .select({ id: notifications.id })
    .from(notifications)
    .innerJoin(submissions, eq(submissions.id, notifications.submissionId))
    .where(eq(submissions.mailbox, mailboxOf(email)));
  return rows.map((row) => row.id);
}

/** How many mails to the mailbox of `email` ({@link mailboxOf}) are still waiting in the outbox: `erase` would delete them unsent. */
export async function pendingMailTo(db: Db, email: string): Promise<number> {
  const rows = await db
    .select({ id: notifications.id })
    .from(notifications)
    .innerJoin(submissions, eq(submissions.id, notifications.submissionId))
    .where(
      and(
        eq(submissions.mailbox, mailboxOf(email)),
        eq(notifications.channel, 'mail'),
        sql`${notifications.message} <> 'team-new-request'`,
        isNull(notifications.deliveredAt),
        isNull(notifications.failedAt),
      ),
    );
  return rows.length;
}

type PrivacyRecord = typeof privacyRecords.$inferSelect;

/**
 * A privacy request's history, oldest first, from its record of 11 CCR §7101: received, confirmation
 * sent, verified, extended (with the reason), responded (outcome, reason, and for the team's own view,
 * `show`, by whom). Dates are ISO 8601.
 * @param options - `withTeam: false` leaves out the team member's name (what the requester is sent)
 */
export function historyOf(record: PrivacyRecord, options: { withTeam: boolean } = { withTeam: true }): Array<Record<string, string>> {
  const at = (date: Date) => date.toISOString();
  const events: Array<Record<string, string>> = [
    { event: 'received', at: at(record.receivedAt), how: record.method, types: record.requestTypes.join(', ') },
  ];
  if (record.confirmationSentAt) events.push({ event: 'confirmation sent', at: at(record.confirmationSentAt) });
  if (record.verifiedAt) events.push({ event: 'verified', at: at(record.verifiedAt), how: record.verifiedBy === 'link' ? 'verification link' : 'recorded by the team' });
  if (record.extendedAt) events.push({ event: 'extended', at: at(record.extendedAt), dueAt: at(record.dueAt), reason: record.extensionReason ?? '' });
  if (record.respondedAt) {
    events.push({
      event: 'responded',
      at: at(record.respondedAt),
      outcome: record.outcome ?? '',
      reason: record.outcomeReason ?? '',
      ...(options.withTeam ? { by: record.respondedBy ?? '' } : {}),
    });
  }
  return events.sort((a, b) => a.at!.localeCompare(b.at!));
}

/** One request as its requester is sent it: what they gave, when, and what was done with it. */
export interface RequesterRequest {
  id: string;
  kind: SubmissionKind;
  /** ISO 8601 */
  receivedAt: string;
  /** privacy requests: when the answer is due (ISO 8601) */
  dueAt?: string;
  /** when the request was handled (ISO 8601); absent while open */
  handledAt?: string;
  /** every field they sent (spec §7.1), metadata included */
  data: SubmissionBody['data'];
  /** privacy requests: the record of 11 CCR §7101, oldest first, without the team member's name */
  history?: Array<Record<string, string>>;
}

/**
 * What a requester is sent as their data (`respond --attach-subject`: the answer to Access/Know, 11 CCR
 * §7024, or Data Portability): the requests {@link subjectExport} finds for their email, each with every
 * field they sent, when it was received, due and handled, and its record of §7101 (what was done and
 * when). Not the team's bookkeeping: no team member's name (`handledBy`, `respondedBy`), no team note,
 * no idempotency key or hashes, no outbox rows.
 */
export async function requesterExport(db: Db, email: string): Promise<{ email: string; requests: RequesterRequest[] }> {
  const subject = await subjectExport(db, email);
  const rows = subject.requests as unknown as Array<typeof submissions.$inferSelect>;
  const ids = rows.map((row) => row.id);
  const records = ids.length ? await db.select().from(privacyRecords).where(inArray(privacyRecords.id, ids)) : [];
  const recordOf = new Map(records.map((record) => [record.id, record]));
  return {
    email: subject.email,
    requests: rows.map((row) => {
      const record = recordOf.get(row.id);
      return {
        id: row.id,
        kind: row.kind,
        receivedAt: row.receivedAt.toISOString(),
        ...(row.dueAt ? { dueAt: (record?.dueAt ?? row.dueAt).toISOString() } : {}),
        ...(row.handledAt ? { handledAt: row.handledAt.toISOString() } : {}),
        data: row.body.data,
        ...(record ? { history: historyOf(record, { withTeam: false }) } : {}),
      };
    }),
  };
}
