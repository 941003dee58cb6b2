import { desc, eq, sql } from 'drizzle-orm';
import { RETENTION } from '#shared/policy';
import { privacyRequestTypesOf, submissionKind, type SubmissionBody, type SubmissionKind } from '#shared/submission';
import type { Db } from './database.ts';
import { cohorts, privacyRecords, submissions } from './schema.ts';
import { MAIL_LIMITS } from '../limits.ts';
import { addressOf, sha256Hex } from './mailbox.ts';

/** What {@link acceptSubmission} did. */
export type AcceptOutcome =
  /** `queued`: it wrote a delivery of its own (server/outbox/) for the sender to send: now, or a confirmation at its mailbox's next slot */
  | { status: 'stored'; id: string; kind: SubmissionKind; queued: boolean }
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

/** What holds for every submission of one call: the rate limit, and which deliveries to write. */
export interface AcceptSettings {
  /** submissions per client per window before `limited` */
  limitPerWindow: number;
  /** the rate limit's window, in ms (whole seconds) */
  windowMs: number;
  /** also write, in the same statement, the webhook delivery that announces each new row to the team (server/outbox/) */
  announce?: boolean;
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
      queued: sql<boolean | null>`a.queued`,
    })
    .from(
      sql`accept_submissions(${p('batch')}::jsonb, ${p('windowSeconds')}::int, ${p('limit')}::int,
          ${p('dueDays')}::int, ${p('announce')}::boolean,
          ${p('mail')}::boolean, ${p('teamMail')}::boolean, ${p('mailWindowSeconds')}::int,
          ${p('acknowledgmentLimit')}::int, ${p('confirmationLimit')}::int, ${p('coverLimit')}::int) with ordinality a`,
    )
    .orderBy(sql`a.ordinality`)
    .prepare('accept_submissions');
}

function acceptStatement(db: Db) {
  let statement = acceptStatements.get(db);
  if (!statement) acceptStatements.set(db, (statement = prepareAcceptStatement(db)));
  return statement;
}

/**
 * Accepts checked submissions in one statement, one transaction, one commit: the database function
 * `accept_submissions` (server/db/functions/accept_submission.sql) first takes a transaction-scoped
 * advisory lock per client and, with requester mail, per mailbox, all up front in one sorted order (so
 * batches of several instances wait for each other where they share one, and never deadlock), then
 * passes each, in order, to `accept_submission`, so nothing is half-written and a batch of n costs one
 * round trip and one commit, not n. For each:
 * 1. when its idempotency key is already stored (by an earlier submission of the same batch too):
 *    nothing is written (`replayed`, or `conflict` when the body differs), and the repeat does not count
 *    against the rate limit;
 * 2. when the client (a SHA-256 of its IP) already has `limitPerWindow` submissions stored in the last
 *    `windowMs`: nothing is stored (`limited`, with the seconds until its oldest one leaves the window,
 *    ≥ 1). Counted in the database under the client's lock, so the limit holds within a batch and across
 *    batches and server instances;
 * 3. otherwise the row is inserted with `kind` from the privacy mapping of spec §3 and, for a privacy
 *    request, `due_at` = received + 45 days (spec §9). Two requests racing on one key store one row.
 *    With it, a privacy request's record of 11 CCR §7101 (`privacy_records`), and its outbox rows: the
 *    webhook's, the team's mail, and the requester's mail within {@link MAIL_LIMITS} per mailbox
 *    ({@link mailboxOf}), counted under the mailbox's lock: an invite acknowledgment past the limit is left out; a privacy confirmation
 *    never is (11 CCR §7021(a)): it joins the mailbox's confirmation not yet claimed by a sender, or,
 *    past the limit, waits for the next slot, when the oldest mail counted leaves the window; when every
 *    waiting one lists `requestsPerConfirmation` requests, it is one more mail at the earliest one's slot.
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
    email: addressOf(input.body.data.workEmail),
    body: input.body,
    // the record of 11 CCR §7101 states the request types as the form's own labels, nothing else
    types: privacyRequestTypesOf(input.body.data.useCaseDescription),
  }));
  const rows = await acceptStatement(db).execute({
    batch: JSON.stringify(prepared),
    windowSeconds: settings.windowMs / 1000,
    limit: settings.limitPerWindow,
    dueDays: RETENTION.privacyResponseDays,
    announce: settings.announce ?? false,
    mail: settings.mail?.requester ?? false,
    teamMail: settings.mail?.team ?? false,
    mailWindowSeconds: MAIL_LIMITS.windowMs / 1000,
    acknowledgmentLimit: MAIL_LIMITS.invitePerWindow,
    confirmationLimit: MAIL_LIMITS.privacyPerWindow,
    coverLimit: MAIL_LIMITS.requestsPerConfirmation,
  });
  return Promise.all(
    prepared.map(async ({ key, kind, sha }, i): Promise<AcceptOutcome | Error> => {
      const row = rows[i];
      if (!row) return new Error(`the accept statement returned ${rows.length} rows for ${prepared.length} submissions`);
      const earlier = (id: string, existingSha: string | null): AcceptOutcome =>
        existingSha === sha ? { status: 'replayed', id } : { status: 'conflict', id };
      if (row.new_id) return { status: 'stored', id: row.new_id, kind, queued: row.queued === true };
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
function sqlStateOf(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    // SQLSTATE: five characters, its class first (digits, or F0, HV, P0, XX); Node's EPIPE is not one
    if (typeof code === 'string' && /^[0-9FHPX][0-9A-Z]{4}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Whether the database refused a value as a data exception (SQLSTATE class 22: a time that is no instant,
 * a number out of range): the client's error, which a retry would never mend (answered 400, not 500).
 */
export function isDataException(error: unknown): boolean {
  return sqlStateOf(error)?.startsWith('22') ?? false;
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
async function findByIdempotencyKey(db: Db, key: string): Promise<{ id: string; bodySha256: string } | undefined> {
  const [row] = await db
    .select({ id: submissions.id, bodySha256: submissions.bodySha256 })
    .from(submissions)
    .where(eq(submissions.idempotencyKey, key));
  return row;
}

type Row = typeof submissions.$inferSelect;
type PrivacyRecordRow = typeof privacyRecords.$inferSelect;

/** The team's `show`: one request and its privacy record (each absent when not stored; the record outlives an erased request). */
export async function findRequest(db: Db, id: string): Promise<{ row?: Row; record?: PrivacyRecordRow }> {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id));
  const [record] = await db.select().from(privacyRecords).where(eq(privacyRecords.id, id));
  return { row, record };
}

/** The team's `export`: every request (of one kind, if given), newest first (ties by id, descending, as the console's export), with an accepted one's cohort. */
export function exportRequests(db: Db, kind?: SubmissionKind): Promise<Array<{ row: Row; cohort: string | null }>> {
  return db
    .select({ row: submissions, cohort: cohorts.name })
    .from(submissions)
    .leftJoin(cohorts, eq(cohorts.id, submissions.cohortId))
    .where(kind ? eq(submissions.kind, kind) : undefined)
    .orderBy(desc(submissions.receivedAt), desc(submissions.id));
}

/** A request to change, locked (`for update`) until the transaction commits; undefined when there is none. */
export async function lockRequest(db: Db, id: string): Promise<Row | undefined> {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id)).for('update');
  return row;
}
