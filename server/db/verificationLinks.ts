import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { VERIFICATION_TOKEN_BYTES, VERIFICATION_TOKEN_PATTERN, type VerificationAnswer } from '#shared/verification';
import type { PrivacyRequestType } from '#shared/submission';
import { rowsOf, type Db } from './database.ts';
import { privacyRecords, privacyVerifications } from './schema.ts';
import { sha256Hex } from './mailbox.ts';

// Verification links of privacy requests (11 CCR §7060, §7062). A link carries a token of
// 32 random bytes; the database keeps only its SHA-256, so a copy of the database confirms nobody.
// A link is good while its request is unanswered and not past its due date (`privacy_records.due_at`,
// moved by `extend`); it confirms its request once, and then says so.

/** A link is good only while its request is neither answered nor past due (the SQL of a record `r`). */
const STILL_GOOD = sql`r.responded_at is null and r.due_at > now()`;

/**
 * Makes a new verification token for the privacy request `requestId` and stores its SHA-256: what the
 * mail channel puts in the link of a confirmation of receipt (server/outbox/mail.ts). Each attempt to
 * send that mail makes its own token, so a link that reached the requester works whichever attempt it
 * came from.
 * @returns the token (43 characters, base64url), or null when no link is wanted: the request is
 *   already verified, answered, past due, or has no record (erased)
 */
export async function issueVerificationToken(db: Db, requestId: string): Promise<string | null> {
  const token = randomBytes(VERIFICATION_TOKEN_BYTES).toString('base64url');
  const result = await db.execute(sql`
    insert into ${privacyVerifications} (token_sha256, request_id)
    select ${sha256Hex(token)}::text, r.id from ${privacyRecords} r
    where r.id = ${requestId} and r.verified_at is null and ${STILL_GOOD}
    returning request_id`);
  return rowsOf(result).length === 1 ? token : null;
}

type Found = { received_at: Date | string; request_types: PrivacyRequestType[]; verified_at: Date | string | null };

function answerOf(row: Found, status: VerificationAnswer['status']): VerificationAnswer {
  return { status, requestTypes: row.request_types, receivedAt: new Date(row.received_at).toISOString() };
}

/**
 * Which request `token` confirms, and whether it already is: what `/privacy-request/verify` shows before
 * the visitor confirms. Changes nothing.
 * @returns null for a token that is malformed, unknown, past its request's due date, or of an answered request
 */
export async function lookUpVerification(db: Db, token: string): Promise<VerificationAnswer | null> {
  if (!VERIFICATION_TOKEN_PATTERN.test(token)) return null;
  const result = await db.execute(sql`
    select r.received_at, array_to_json(r.request_types) as request_types, r.verified_at
    from ${privacyVerifications} v join ${privacyRecords} r on r.id = v.request_id
    where v.token_sha256 = ${sha256Hex(token)}::text and ${STILL_GOOD}`);
  const [row] = rowsOf<Found>(result);
  return row ? answerOf(row, row.verified_at === null ? 'unverified' : 'verified') : null;
}

/**
 * "Confirm it's me": records, in one statement, that the requester of the token's request confirmed it
 * (`privacy_records.verified_at`, `verified_by = 'link'`) and marks every link of that request used.
 * @returns `confirmed` when this call verified it, `verified` when it already was (by a link or by the
 *   team, or by a confirmation that committed while this one ran); null as {@link lookUpVerification},
 *   and when the request was answered while this call ran
 */
export async function confirmVerification(db: Db, token: string): Promise<VerificationAnswer | null> {
  if (!VERIFICATION_TOKEN_PATTERN.test(token)) return null;
  const result = await db.execute(sql`
    with hit as (
      select r.id, r.received_at, array_to_json(r.request_types) as request_types, r.verified_at
      from ${privacyVerifications} v join ${privacyRecords} r on r.id = v.request_id
      where v.token_sha256 = ${sha256Hex(token)}::text and ${STILL_GOOD}
    ),
    recorded as (
      -- rechecked on the row as it is when locked: a respond or a confirmation that committed meanwhile wins
      update ${privacyRecords} r set verified_at = now(), verified_by = 'link'
      from hit where r.id = hit.id and r.verified_at is null and ${STILL_GOOD}
      returning r.id
    ),
    used as (
      update ${privacyVerifications} v set used_at = now() from recorded where v.request_id = recorded.id and v.used_at is null
    )
    select hit.received_at, hit.request_types, hit.verified_at, exists (select 1 from recorded) as recorded from hit`);
  const [row] = rowsOf<Found & { recorded: boolean }>(result);
  if (!row) return null;
  if (row.recorded) return answerOf(row, 'confirmed');
  if (row.verified_at !== null) return answerOf(row, 'verified');
  // Unverified when this statement began, and not recorded by it: another transaction committed
  // meanwhile (a confirmation: `verified`; a response, or the due date: the link is no longer good).
  return lookUpVerification(db, token);
}
