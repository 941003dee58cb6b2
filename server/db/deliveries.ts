import { sql } from 'drizzle-orm';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { rowsOf, type Db } from './database.ts';
import { deliveries, privacyRecords, submissions, type DecisionEvent, type MailMessage, type MemberMailMessage, type OutboxChannel } from './schema.ts';

/** A delivery of a request the outbox claimed, with what its message needs (the columns as the drivers return them). */
export type ClaimedDelivery = {
  id: string;
  locked_until: Date | string;
  submission_id: string;
  /** always null here: a member's delivery is a {@link ClaimedMemberDelivery} */
  member_id: null;
  attempts: number;
  created_at: Date | string;
  channel: OutboxChannel;
  message: MailMessage | null;
  attach_subject: boolean;
  kind: SubmissionKind;
  email: string;
  outcome: string | null;
  outcome_reason: string | null;
  extension_reason: string | null;
  /** as JSON, which both drivers parse: a raw `text[]` comes back from PGlite as its literal `{a,b}` */
  request_types: string[] | null;
  record_due_at: Date | string | null;
  received_at: Date | string;
  body: SubmissionBody | string;
  due_at: Date | string | null;
  rendered: string | null;
  /** the `event` channel's event type; null for the others */
  event: DecisionEvent | null;
  /** what the decision that wrote the row fixed (`deliveries.payload`); a string when the driver did not parse it */
  payload: Record<string, unknown> | string | null;
  /** as JSON: the requests the row covers, oldest first */
  covered: Array<{ id: string; received_at: string; due_at: string | null; body: SubmissionBody }> | string;
};

/**
 * A team member's delivery the outbox claimed: the mail of an enrollment link (`team-enrollment`), the daily
 * digest (`team-digest`) or an overdue alert (`team-overdue`), rendered when it was written (`rendered` is
 * null only once it was delivered or given up).
 */
export type ClaimedMemberDelivery = {
  id: string;
  locked_until: Date | string;
  submission_id: null;
  member_id: string;
  /** the member's lower-cased address */
  member_email: string;
  attempts: number;
  created_at: Date | string;
  channel: 'mail';
  message: MemberMailMessage;
  rendered: string | null;
};

/**
 * Claims up to `places` due deliveries of these channels (`for update skip locked`, so many senders never
 * claim one row twice), each under a lease of `leaseMs` on the database's clock, and counts the attempt
 * (the count is the lease's token: {@link Lease}). A row whose lease has run out (its sender died) is due
 * again.
 * @param names - the channels this sender has
 * @param leaseMs - the lease, in ms (`DELIVERY_LEASE_MS`), renewed by {@link renewLease} while the delivery is in flight
 */
export async function claimDeliveries(
  db: Db,
  places: number,
  names: string[],
  leaseMs: number,
): Promise<Array<ClaimedDelivery | ClaimedMemberDelivery>> {
    const result = await db.execute(sql`
      with due as (
        select id from ${deliveries}
        where delivered_at is null and failed_at is null and next_attempt_at <= now()
          and (locked_until is null or locked_until < now())
          and channel in (${sql.join(names.map((name) => sql`${name}`), sql`, `)})
        order by next_attempt_at
        limit ${places}
        for update skip locked
      ),
      claimed as (
        update ${deliveries} d set locked_until = now() + make_interval(secs => ${leaseMs / 1000}::float8), attempts = d.attempts + 1
        from due where d.id = due.id
        returning d.id, d.submission_id, d.member_id, d.attempts, d.created_at, d.channel, d.message, d.attach_subject, d.locked_until, d.rendered, d.covers, d.event, d.payload
      )
      select c.id, c.submission_id, c.member_id, m.email as member_email, c.attempts, c.created_at, c.channel, c.message, c.attach_subject, c.locked_until, c.rendered, c.event, c.payload,
        s.kind, s.email, s.received_at, s.body, s.due_at,
        r.outcome, r.outcome_reason, r.extension_reason, array_to_json(r.request_types) as request_types, r.due_at as record_due_at,
        (select coalesce(json_agg(json_build_object('id', cs.id, 'received_at', cs.received_at, 'due_at', coalesce(cr.due_at, cs.due_at), 'body', cs.body)
                  order by cs.received_at, cs.id), '[]'::json)
           from ${submissions} cs left join ${privacyRecords} cr on cr.id = cs.id
           where cs.id = any(coalesce(c.covers, array[c.submission_id]))) as covered
      from claimed c left join submissions s on s.id = c.submission_id left join privacy_records r on r.id = c.submission_id
        left join team_members m on m.id = c.member_id`);
    return rowsOf<ClaimedDelivery | ClaimedMemberDelivery>(result);
}

/**
 * A claimed delivery under this sender's lease: every update of the row holds only while the lease does.
 * `attempts` is the lease's token: each claim counts one more, so once another sender has claimed the row
 * (after this lease ran out), none of this sender's updates matches it any more.
 */
export interface Lease {
  id: string;
  attempts: number;
}

// Once another sender has claimed the row, its outcome is the one that counts.
const mine = (lease: Lease) => sql`${deliveries.id} = ${lease.id} and ${deliveries.attempts} = ${lease.attempts}`;

/**
 * Renews a lease while its delivery is in flight: `leaseMs` from now, by the database's clock.
 * @returns false when the lease is no longer this sender's (another claimed the row), or the delivery's
 *   outcome was recorded already
 */
export async function renewLease(db: Db, lease: Lease, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .update(deliveries)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000}::float8)` })
    .where(sql`${mine(lease)} and ${deliveries.lockedUntil} is not null and ${deliveries.deliveredAt} is null and ${deliveries.failedAt} is null`)
    .returning({ id: deliveries.id });
  return renewed.length > 0;
}

/** Keeps a delivery's rendered message before it is sent. @returns false when the lease ended (or one was kept already) */
export async function keepRendered(db: Db, lease: Lease, rendered: string): Promise<boolean> {
  const kept = await db.update(deliveries).set({ rendered }).where(sql`${mine(lease)} and ${deliveries.rendered} is null`).returning({ id: deliveries.id });
  return kept.length > 0;
}

/** A delivery sent: done, its kept copy cleared. */
export async function markDelivered(db: Db, lease: Lease): Promise<void> {
  await db.update(deliveries).set({ deliveredAt: sql`now()`, lockedUntil: null, lastError: null, rendered: null }).where(mine(lease));
}

/** 11 CCR §7101: the records of these requests keep when their confirmation of receipt first went out. */
export async function markConfirmationSent(db: Db, requestIds: string[]): Promise<void> {
  await db
    .update(privacyRecords)
    .set({ confirmationSentAt: sql`coalesce(${privacyRecords.confirmationSentAt}, now())` })
    .where(sql`${privacyRecords.id} in (${sql.join(requestIds.map((id) => sql`${id}::uuid`), sql`, `)})`);
}

/** A delivery given up: failed with its problem; the kept copy (it may hold a live verification token) cleared. */
export async function markFailed(db: Db, lease: Lease, problem: string): Promise<void> {
  await db.update(deliveries).set({ failedAt: sql`now()`, lockedUntil: null, lastError: problem, rendered: null }).where(mine(lease));
}

/** A delivery to try again `delayMs` from now, by the database's clock (the one the claim compares with). */
export async function scheduleRetry(db: Db, lease: Lease, delayMs: number, problem: string): Promise<void> {
  await db
    .update(deliveries)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1000})`, lockedUntil: null, lastError: problem })
    .where(mine(lease));
}
