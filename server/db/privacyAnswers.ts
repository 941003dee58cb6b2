import { eq, sql } from 'drizzle-orm';
import { RETENTION } from '#shared/policy';
import { rowsOf, type Db } from './database.ts';
import { deliveries, privacyRecords, privacyVerifications, submissions, type PrivacyOutcome } from './schema.ts';

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

/** A privacy request's record, locked (`for update`) until the transaction commits; undefined when there is none. */
export async function lockPrivacyRecord(db: Db, id: string): Promise<PrivacyRecord | undefined> {
  const [record] = await db.select().from(privacyRecords).where(eq(privacyRecords.id, id)).for('update');
  return record;
}

/**
 * The team's `respond`, in one statement: the record of 11 CCR §7101, the request marked handled, its
 * verification links deleted, the outcome mail in the outbox, and with `events` the signed
 * `privacy.responded` event (its data: the request's id and types, the outcome and when; no name, no email). Whether the response may be given
 * (its basis, the identity it needs) is the course's chart's to say (server/db/privacyCourse.ts
 * `refusalOf`); the where-clause only holds the state it was asked from: unanswered.
 * @returns false when the request was answered already (by another `respond` in between)
 */
export async function recordResponse(
  db: Db,
  id: string,
  answer: { at: Date; outcome: PrivacyOutcome; reason?: string; by: string; attachSubject: boolean; events?: boolean },
): Promise<boolean> {
  const at = answer.at.toISOString();
  const result = await db.execute(sql`
          with answered as (
            update ${privacyRecords} set responded_at = ${at}::timestamptz, outcome = ${answer.outcome},
              outcome_reason = ${answer.reason ?? null}, responded_by = ${answer.by}
            where id = ${id} and responded_at is null
            returning id, request_types
          ),
          event as (
            insert into ${deliveries} (submission_id, channel, event, created_at, payload)
            select id, 'event', 'privacy.responded', ${at}::timestamptz,
              jsonb_build_object('requestId', id, 'requestTypes', to_jsonb(request_types), 'outcome', ${answer.outcome}::text, 'respondedAt', ${at}::text)
            from answered where ${answer.events ?? false}
          ),
          spent as (
            delete from ${privacyVerifications} where request_id in (select id from answered)
          ),
          handled as (
            update ${submissions} set handled_at = ${at}::timestamptz, handled_by = ${answer.by},
              handled_note = ${`${answer.outcome}${answer.reason ? `: ${answer.reason}` : ''}`}
            where id in (select id from answered)
          )
          insert into ${deliveries} (submission_id, channel, message, attach_subject)
          select id, 'mail', 'privacy-outcome', ${answer.attachSubject} from answered
          returning submission_id`);
  return rowsOf(result).length > 0;
}

/**
 * The team's `verify`, in one statement: the record says the requester confirmed it is them (11 CCR
 * §7060), and the links of its confirmation now say it is already confirmed. Whether it may (before the
 * due date, not answered) is the course's chart's to say (server/db/privacyCourse.ts `refusalOf`); the
 * where-clause only holds the state it was asked from, unverified and unanswered.
 * @returns false when it was verified or answered meanwhile
 */
export async function recordVerifiedByTeam(db: Db, id: string, at: Date): Promise<boolean> {
  const now = at.toISOString();
  const result = await db.execute(sql`
          with verified as (
            update ${privacyRecords} set verified_at = ${now}::timestamptz, verified_by = 'team'
            where id = ${id} and verified_at is null and responded_at is null
            returning id
          ),
          used as (
            update ${privacyVerifications} set used_at = ${now}::timestamptz
            where request_id in (select id from verified) and used_at is null
          )
          select id from verified`);
  return rowsOf(result).length > 0;
}

/**
 * The team's `extend` (11 CCR §7021(b)), in one statement: the due date moved
 * `RETENTION.privacyResponseDays` days on, once, with its reason, and the notice in the outbox. Whether
 * it may (once, before the due date) is the course's chart's to say (server/db/privacyCourse.ts
 * `refusalOf`); the where-clause only holds the state it was asked from: not extended, unanswered.
 * @returns the new due date; undefined when it was extended or answered meanwhile
 */
export async function extendDueDate(db: Db, id: string, extension: { at: Date; reason: string }): Promise<Date | undefined> {
  const result = await db.execute(sql`
          with extended as (
            update ${privacyRecords} set due_at = due_at + make_interval(days => ${RETENTION.privacyResponseDays}::int),
              extended_at = ${extension.at.toISOString()}::timestamptz, extension_reason = ${extension.reason}
            where id = ${id} and extended_at is null and responded_at is null
            returning id, due_at
          ),
          moved as (
            update ${submissions} s set due_at = e.due_at from extended e where s.id = e.id
          ),
          notice as (
            insert into ${deliveries} (submission_id, channel, message)
            select id, 'mail', 'privacy-extension' from extended
          )
          select due_at from extended`);
  const [row] = rowsOf<{ due_at: Date | string }>(result);
  return row ? new Date(row.due_at) : undefined;
}
