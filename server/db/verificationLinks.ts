import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { VERIFICATION_TOKEN_BYTES, VERIFICATION_TOKEN_PATTERN, type VerificationAnswer } from '#shared/verification';
import { rowsOf, type Db } from './database.ts';
import { privacyCourseOf, refusalOf } from './privacyCourse.ts';
import { privacyRecords, privacyVerifications } from './schema.ts';
import { sha256Hex } from './mailbox.ts';

// Verification links of privacy requests (11 CCR §7060, §7062). A link carries a token of
// 32 random bytes; the database keeps only its SHA-256, so a copy of the database confirms nobody.
// A link is good while the course's chart (machines/privacyCourseMachine.ts) would take its `verify`
// by link: the request unanswered and not past its due date (`privacy_records.due_at`, moved by
// `extend`); it confirms its request once, and then says so. The statements that write hold only the
// state the chart was asked from (unverified, unanswered), so that a step committed meanwhile wins.

type PrivacyRecordRow = typeof privacyRecords.$inferSelect;

/** The chart's verdict on a confirmation by link of `record` at `now`: taken, already verified, or refused. */
function linkVerdict(record: PrivacyRecordRow, now: Date): 'takes' | 'verified' | 'refused' {
  const refusal = refusalOf(record.id, privacyCourseOf(record, now), { type: 'verify', by: 'link', at: now.toISOString() });
  if (!refusal) return 'takes';
  return refusal.rule === 'verifiedAlready' ? 'verified' : 'refused';
}

/**
 * Makes a new verification token for the privacy request `requestId` and stores its SHA-256: what the
 * mail channel puts in the link of a confirmation of receipt (server/outbox/mail.ts). Each attempt to
 * send that mail makes its own token, so a link that reached the requester works whichever attempt it
 * came from.
 * @param now - the clock the course's chart is asked at (default: the current time)
 * @returns the token (43 characters, base64url), or null when no link is wanted: the request is
 *   already verified, answered, past due, or has no record (erased)
 */
export async function issueVerificationToken(db: Db, requestId: string, now = new Date()): Promise<string | null> {
  const [record] = await db.select().from(privacyRecords).where(eq(privacyRecords.id, requestId));
  if (!record || linkVerdict(record, now) !== 'takes') return null;
  const token = randomBytes(VERIFICATION_TOKEN_BYTES).toString('base64url');
  const result = await db.execute(sql`
    insert into ${privacyVerifications} (token_sha256, request_id)
    select ${sha256Hex(token)}::text, r.id from ${privacyRecords} r
    where r.id = ${requestId} and r.verified_at is null and r.responded_at is null
    returning request_id`);
  return rowsOf(result).length === 1 ? token : null;
}

function answerOf(record: PrivacyRecordRow, status: VerificationAnswer['status']): VerificationAnswer {
  return { status, requestTypes: record.requestTypes as VerificationAnswer['requestTypes'], receivedAt: record.receivedAt.toISOString() };
}

/** The record of the request `token` links to; undefined for a malformed or unknown token. */
async function recordOfToken(db: Db, token: string): Promise<PrivacyRecordRow | undefined> {
  if (!VERIFICATION_TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ record: privacyRecords })
    .from(privacyVerifications)
    .innerJoin(privacyRecords, eq(privacyRecords.id, privacyVerifications.requestId))
    .where(eq(privacyVerifications.tokenSha256, sha256Hex(token)));
  return row?.record;
}

/**
 * Which request `token` confirms, and whether it already is: what `/privacy-request/verify` shows before
 * the visitor confirms. Changes nothing.
 * @param now - the clock the course's chart is asked at (default: the current time)
 * @returns null for a token that is malformed, unknown, past its request's due date, or of an answered request
 */
export async function lookUpVerification(db: Db, token: string, now = new Date()): Promise<VerificationAnswer | null> {
  const record = await recordOfToken(db, token);
  if (!record) return null;
  const verdict = linkVerdict(record, now);
  return verdict === 'refused' ? null : answerOf(record, verdict === 'takes' ? 'unverified' : 'verified');
}

/**
 * "Confirm it's me": when the course's chart takes the confirmation (`verify` by link), records it in one
 * statement (`privacy_records.verified_at`, `verified_by = 'link'`) and marks every link of that request used.
 * @param now - when: the clock the chart is asked at and the time recorded (default: the current time)
 * @returns `confirmed` when this call verified it, `verified` when it already was (by a link or by the
 *   team, or by a confirmation that committed while this one ran); null as {@link lookUpVerification},
 *   and when the request was answered while this call ran
 */
export async function confirmVerification(db: Db, token: string, now = new Date()): Promise<VerificationAnswer | null> {
  const record = await recordOfToken(db, token);
  if (!record) return null;
  const verdict = linkVerdict(record, now);
  if (verdict !== 'takes') return verdict === 'verified' ? answerOf(record, 'verified') : null;
  const at = now.toISOString();
  const result = await db.execute(sql`
    with recorded as (
      -- the state the chart was asked from, as the row is when locked: a respond or a confirmation that committed meanwhile wins
      update ${privacyRecords} set verified_at = ${at}::timestamptz, verified_by = 'link'
      where id = ${record.id} and verified_at is null and responded_at is null
      returning id
    ),
    used as (
      update ${privacyVerifications} v set used_at = ${at}::timestamptz from recorded where v.request_id = recorded.id and v.used_at is null
    )
    select id from recorded`);
  if (rowsOf(result).length > 0) return answerOf(record, 'confirmed');
  // Another transaction committed meanwhile (a confirmation: `verified`; a response: the link is no longer good).
  return lookUpVerification(db, token, now);
}
