import { createHash } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { RETENTION } from '#shared/policy';
import { submissionKind, type SubmissionBody, type SubmissionKind } from '#shared/submission';
import { rowsOf, type Db } from './db/database.ts';
import { erasures, submissions } from './db/schema.ts';

/** SHA-256 of a string, as 64 hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
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

type AcceptRow = {
  existing_id: string | null;
  existing_sha: string | null;
  recent: number | null;
  retry_after: number | null;
  new_id: string | null;
};

/**
 * Accepts one checked submission in one call of the database function `accept_submission`
 * (server/db/migrations/0005_accept_submission_notify.sql): one round trip, one commit, nothing
 * half-written; with `notify`, the webhook notification is written in the same statement.
 * 1. when `idempotencyKey` is already stored: nothing is written (`replayed`, or `conflict` when the
 *    body differs), and the repeat does not count against the rate limit;
 * 2. when the client (a SHA-256 of its IP) already has `limitPerWindow` submissions stored in the last
 *    `windowMs`: nothing is stored (`limited`, with the seconds until its oldest one leaves the window,
 *    ≥ 1). Counted in the database, so the limit holds across server instances (two requests of one
 *    client at the same instant may both pass: the limit is a guard against floods, not a quota);
 * 3. otherwise the row is inserted with `kind` from the privacy mapping of spec §3 and, for a privacy
 *    request, `due_at` = received + 45 days (spec §9). Two requests racing on one key store one row.
 * @throws the driver's error when the database fails; the caller answers 500.
 */
export async function acceptSubmission(
  db: Db,
  input: {
    body: SubmissionBody;
    idempotencyKey: string | null;
    clientIp: string;
    limitPerWindow: number;
    windowMs: number;
    /** also write the webhook notification of the new row (server/notifier.ts) in the same statement */
    notify?: boolean;
  },
): Promise<AcceptOutcome> {
  const json = JSON.stringify(input.body);
  const bodySha256 = sha256Hex(json);
  const kind = submissionKind(input.body.data);
  const key = input.idempotencyKey;
  const result = await db.execute(sql`
    select existing_id, existing_sha, recent, retry_after, new_id from accept_submission(
      ${key}::text, ${sha256Hex(input.clientIp)}::text, ${input.windowMs / 1000}::int, ${input.limitPerWindow}::int,
      ${kind}::text, ${bodySha256}::text, ${input.body.data.workEmail.toLowerCase()}::text, ${json}::jsonb,
      ${RETENTION.privacyResponseDays}::int, ${input.notify ?? false}::boolean)`);
  const [row] = rowsOf<AcceptRow>(result);
  if (!row) throw new Error('the accept statement returned no row');
  const earlier = (id: string, sha: string | null): AcceptOutcome => (sha === bodySha256 ? { status: 'replayed', id } : { status: 'conflict', id });
  if (row.new_id) return { status: 'stored', id: row.new_id, kind };
  if (row.existing_id) return earlier(row.existing_id, row.existing_sha);
  if (row.recent !== null && row.recent >= input.limitPerWindow) return { status: 'limited', retryAfterSeconds: Number(row.retry_after ?? 1) };
  // Within the limit, yet not inserted: another request stored this key meanwhile.
  const first = key ? await findByIdempotencyKey(db, key) : undefined;
  if (!first) throw new Error('the submission was neither stored nor found under its idempotency key');
  return earlier(first.id, first.bodySha256);
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
 * Deletes every request stored under `email` (case-insensitive) and, in the same statement, keeps an
 * erasure record: SHA-256 of the lower-cased email, the time, the count. What a Delete request needs.
 * @returns how many requests were deleted (0 is recorded too: the request was carried out)
 */
export async function eraseSubject(db: Db, email: string): Promise<number> {
  const normalized = email.trim().toLowerCase();
  const result = await db.execute(sql`
    with gone as (delete from ${submissions} where email = ${normalized}::text returning 1)
    insert into ${erasures} (email_sha256, submissions) select ${sha256Hex(normalized)}::text, count(*)::int from gone
    returning submissions`);
  return Number(rowsOf<{ submissions: number }>(result)[0]?.submissions ?? 0);
}

/**
 * Deletes what the privacy policy's retention periods have passed at `now` (src/content/privacyPolicy.ts,
 * shared/policy.ts): invite requests received more than 18 months before, privacy-request records more
 * than 24 months before.
 * @returns how many of each were deleted
 */
export async function purgeExpired(db: Db, now: Date): Promise<{ invite: number; privacy: number }> {
  const monthsBefore = (months: number) => sql`${now.toISOString()}::timestamptz - make_interval(months => ${months}::int)`;
  const gone = await db
    .delete(submissions)
    .where(
      or(
        and(eq(submissions.kind, 'invite'), lt(submissions.receivedAt, monthsBefore(RETENTION.applicationMonths))),
        and(eq(submissions.kind, 'privacy'), lt(submissions.receivedAt, monthsBefore(RETENTION.privacyRequestRecordMonths))),
      ),
    )
    .returning({ kind: submissions.kind });
  return { invite: gone.filter((r) => r.kind === 'invite').length, privacy: gone.filter((r) => r.kind === 'privacy').length };
}
