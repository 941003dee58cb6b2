import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { needsVerification } from '#machines/privacyCourseMachine';
import { daysLeftUntil, dueBandOf, DUE_SOON_DAYS, type DueBand } from '#shared/dueBand';
import { rowsOf, type Db } from './database.ts';
import { auditCommandLine } from './team.ts';
import { cohorts, deliveries, privacyOverdueAlerts, privacyRecords, submissions, teamDigests, teamMembers, type DigestSender, type MemberMailMessage } from './schema.ts';
import {
  DIGEST_COHORT_STARTS_WITHIN_DAYS,
  DIGEST_GIVEN_UP_WITHIN_MS,
  DIGEST_INVITE_WAITING_AFTER_MS,
  DIGEST_UNVERIFIED_AFTER_MS,
} from '../limits.ts';

const DAY_MS = 86_400_000;

/**
 * A privacy request as the digest and the overdue alert state it: its id, the request types the form
 * offered (its own labels, never the requester's words), when it came and when it is due. Nothing that
 * names or reaches the requester: the console shows that after sign-in.
 */
export interface ReminderRequest {
  id: string;
  types: string[];
  receivedAt: Date;
  /** the record's due date (received + 45 days, + 45 once extended: 11 CCR §7021(b)) */
  dueAt: Date;
  /** whole days left at the digest's moment, 0 or less once due (`#shared/dueBand` `daysLeftUntil`) */
  daysLeft: number;
  band: DueBand;
}

/** A delivery given up (its request's id, not its recipient), as the digest lists it. */
export interface GivenUpDelivery {
  id: string;
  channel: string;
  /** the mail's message or the event's type; null for the announcement webhook */
  what: string | null;
  /** the request it was about; null for a team member's mail */
  requestId: string | null;
  failedAt: Date;
  /** the last failure as the outbox kept it: a status or an SMTP code, never the receiver's text */
  problem: string | null;
}

/** A cohort starting soon, and its free seats (null: no capacity set). */
export interface StartingCohort {
  name: string;
  /** `YYYY-MM-DD` */
  startsOn: string;
  capacity: number | null;
  accepted: number;
  free: number | null;
}

/** What needs the team on one UTC day: the content of its digest (server/outbox/messages/teamDigest.ts). */
export interface Digest {
  /** the UTC day, `YYYY-MM-DD` */
  day: string;
  /** the moment it was read */
  at: Date;
  /** open privacy requests overdue, due in under 5 days, or in under 10 (the console's bands), soonest first */
  due: ReminderRequest[];
  /** open privacy requests whose requester has not confirmed their identity more than 10 days after receipt ({@link DIGEST_UNVERIFIED_AFTER_MS}) */
  unverified: ReminderRequest[];
  /** invite requests still `received` more than 7 days after receipt ({@link DIGEST_INVITE_WAITING_AFTER_MS}) */
  invitesWaiting: number;
  /** deliveries given up in the last day ({@link DIGEST_GIVEN_UP_WITHIN_MS}) */
  givenUp: GivenUpDelivery[];
  /** cohorts that start from today to 7 days on ({@link DIGEST_COHORT_STARTS_WITHIN_DAYS}), soonest first */
  cohorts: StartingCohort[];
}

/** The UTC day of `at`, `YYYY-MM-DD`: the key of its digest. */
function utcDayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Whether a digest has anything to say: one that has not is not sent. */
export function digestIsEmpty(digest: Digest): boolean {
  return digest.due.length === 0 && digest.unverified.length === 0 && digest.invitesWaiting === 0 && digest.givenUp.length === 0 && digest.cohorts.length === 0;
}

type PrivacyRow = { id: string; request_types: string[] | string; received_at: Date | string; due_at: Date | string };

/** The columns of a privacy request the reminders state: the submission's id and dates, the record's request types (never the body). */
const REMINDER_COLUMNS = sql`s.id, array_to_json(r.request_types) as request_types, s.received_at, s.due_at`;

function reminderOf(row: PrivacyRow, now: Date): ReminderRequest {
  const dueAt = new Date(row.due_at);
  const daysLeft = daysLeftUntil(dueAt, now);
  const types = typeof row.request_types === 'string' ? (JSON.parse(row.request_types) as string[]) : row.request_types;
  return { id: row.id, types, receivedAt: new Date(row.received_at), dueAt, daysLeft, band: dueBandOf(daysLeft) };
}

/**
 * What needs the team at `now` ({@link Digest}): read, nothing written. The due bands are the console's
 * (`#shared/dueBand`); each other threshold is a constant of server/limits.ts.
 */
export async function readDigest(db: Db, now: Date): Promise<Digest> {
  const at = now.toISOString();
  const soon = new Date(now.getTime() + DUE_SOON_DAYS * DAY_MS).toISOString();
  const unverifiedBefore = new Date(now.getTime() - DIGEST_UNVERIFIED_AFTER_MS).toISOString();
  const waitingBefore = new Date(now.getTime() - DIGEST_INVITE_WAITING_AFTER_MS).toISOString();
  const givenUpAfter = new Date(now.getTime() - DIGEST_GIVEN_UP_WITHIN_MS).toISOString();
  const day = utcDayOf(now);
  const [due, unverified, [waiting], givenUp, starting] = await Promise.all([
    db.execute(sql`select ${REMINDER_COLUMNS} from ${submissions} s join ${privacyRecords} r on r.id = s.id
      where s.kind = 'privacy' and s.review_state is null and s.handled_at is null and s.due_at < ${soon}::timestamptz order by s.due_at, s.id`),
    db.execute(sql`select ${REMINDER_COLUMNS} from ${submissions} s join ${privacyRecords} r on r.id = s.id
      where s.kind = 'privacy' and s.handled_at is null and r.verified_at is null and s.received_at < ${unverifiedBefore}::timestamptz
      order by s.received_at, s.id`),
    db.execute(sql`select count(*)::int as n from ${submissions}
      where kind = 'invite' and review_state = 'received' and received_at < ${waitingBefore}::timestamptz`).then((result) => rowsOf<{ n: number }>(result)),
    db
      .select({
        id: deliveries.id,
        channel: deliveries.channel,
        message: deliveries.message,
        event: deliveries.event,
        requestId: deliveries.submissionId,
        failedAt: deliveries.failedAt,
        problem: deliveries.lastError,
      })
      .from(deliveries)
      .where(and(gt(deliveries.failedAt, sql`${givenUpAfter}::timestamptz`), sql`${deliveries.failedAt} <= ${at}::timestamptz`))
      .orderBy(asc(deliveries.failedAt), asc(deliveries.id)),
    db.execute(sql`select c.name, c.starts_on::text as starts_on, c.capacity,
        (select count(*)::int from ${submissions} s where s.cohort_id = c.id) as accepted
      from ${cohorts} c
      where c.starts_on >= ${day}::date and c.starts_on <= ${day}::date + ${DIGEST_COHORT_STARTS_WITHIN_DAYS}::int
      order by c.starts_on, c.name`),
  ]);
  return {
    day,
    at: now,
    due: rowsOf<PrivacyRow>(due)
      .map((row) => reminderOf(row, now))
      .filter((request) => request.band !== 'later'),
    unverified: rowsOf<PrivacyRow>(unverified)
      .map((row) => reminderOf(row, now))
      .filter((request) => needsVerification(request.types)),
    invitesWaiting: waiting?.n ?? 0,
    givenUp: givenUp.map((row) => ({
      id: row.id,
      channel: row.channel,
      what: row.message ?? row.event,
      requestId: row.requestId,
      failedAt: row.failedAt!,
      problem: row.problem,
    })),
    cohorts: rowsOf<{ name: string; starts_on: string; capacity: number | null; accepted: number }>(starting).map((row) => ({
      name: row.name,
      startsOn: row.starts_on,
      capacity: row.capacity,
      accepted: row.accepted,
      free: row.capacity === null ? null : Math.max(0, row.capacity - row.accepted),
    })),
  };
}

/**
 * Renders one member's copy of a reminder (the digest, an overdue alert) as the whole message (RFC 5322),
 * given the outbox row's id (its Message-ID) and the member's address: server/outbox/digest.ts.
 */
export type ReminderMailer<T> = (facts: T, mail: { deliveryId: string; to: string }) => Promise<string>;

/** The active team members (not removed), whom reminders go to. */
function activeMembers(db: Db): Promise<Array<{ id: string; email: string }>> {
  return db.select({ id: teamMembers.id, email: teamMembers.email }).from(teamMembers).where(isNull(teamMembers.removedAt)).orderBy(asc(teamMembers.createdAt), asc(teamMembers.email));
}

/** Writes one member's mail per active member, rendered, into the outbox; the running server's sender sends them. @returns how many */
async function queueToMembers<T>(db: Db, message: MemberMailMessage, facts: T, render: ReminderMailer<T>, members: Array<{ id: string; email: string }>, at: Date): Promise<number> {
  for (const member of members) {
    const deliveryId = randomUUID();
    const rendered = await render(facts, { deliveryId, to: member.email });
    await db.insert(deliveries).values({ id: deliveryId, memberId: member.id, channel: 'mail', message, rendered, createdAt: at, nextAttemptAt: sql`now()` });
  }
  return members.length;
}

/** What queuing a day's digest did. */
export type DigestOutcome =
  /** the mails were queued, one per active member */
  | { status: 'queued'; digest: Digest; mails: number }
  /** nothing needed the team (or no member is active): no mail; the scheduled check still records its day */
  | { status: 'empty'; digest: Digest }
  /** the schedule found the day's digest queued already (by another instance, an earlier check, or `digest --send`) */
  | { status: 'done already' };

/**
 * Queues the digest of `now`'s UTC day to every active team member, rendered by `render`, inside the
 * caller's transaction (server/db/teamTransaction.ts, write mode). The day's row (`team_digests`, keyed
 * by the day) is inserted in the same transaction as the mails, so that across instances and restarts:
 * - `by: 'schedule'` queues only when it inserts the day's row (another instance's insert of the same
 *   day waits for it, then inserts nothing): one digest per day; a day with nothing to say keeps its row
 *   too, with 0 mails;
 * - `by: 'cli'` (`digest --send`) queues whenever something needs the team, whatever the day's row, and
 *   records the day (when no row is there yet), so that the schedule sends no second one that day; it
 *   writes one `digest sent` row to the team's audit.
 */
export async function queueDigest(db: Db, now: Date, by: DigestSender, render: ReminderMailer<Digest>): Promise<DigestOutcome> {
  const day = utcDayOf(now);
  if (by === 'schedule') {
    const inserted = await db.insert(teamDigests).values({ day, queuedAt: now, by, mails: 0 }).onConflictDoNothing().returning({ day: teamDigests.day });
    if (inserted.length === 0) return { status: 'done already' };
  }
  const digest = await readDigest(db, now);
  const members = await activeMembers(db);
  if (digestIsEmpty(digest) || members.length === 0) return { status: 'empty', digest };
  const mails = await queueToMembers(db, 'team-digest', digest, render, members, now);
  if (by === 'schedule') await db.update(teamDigests).set({ mails }).where(eq(teamDigests.day, day));
  else {
    await db.insert(teamDigests).values({ day, queuedAt: now, by, mails }).onConflictDoNothing();
    await auditCommandLine(db, { at: now, action: 'digest sent' });
  }
  return { status: 'queued', digest, mails };
}

/** Whether the day of `now` has its digest's row (queued, or checked with nothing to say). */
export async function digestDone(db: Db, now: Date): Promise<boolean> {
  const [row] = await db.select({ day: teamDigests.day }).from(teamDigests).where(eq(teamDigests.day, utcDayOf(now)));
  return row !== undefined;
}

/**
 * The overdue alert: every open privacy request whose due moment has come by `now` (the course's
 * `overdue`, machines/privacyCourseMachine.ts) and that has no alert yet gets its row in
 * `privacy_overdue_alerts`, and every active member one mail listing them, rendered by `render`, inside
 * the caller's transaction: each request is announced once, across instances (the row's key waits out a
 * concurrent insert) and restarts. With no active member nothing is recorded, so the first member added
 * hears of it.
 * @returns the requests announced (none: nothing queued)
 */
export async function alertOverdue(db: Db, now: Date, render: ReminderMailer<ReminderRequest[]>): Promise<ReminderRequest[]> {
  const members = await activeMembers(db);
  if (members.length === 0) return [];
  const at = now.toISOString();
  const result = await db.execute(sql`
    with overdue as (
      insert into ${privacyOverdueAlerts} (request_id, alerted_at)
      select s.id, ${at}::timestamptz from ${submissions} s
      where s.kind = 'privacy' and s.review_state is null and s.handled_at is null and s.due_at <= ${at}::timestamptz
        and not exists (select 1 from ${privacyOverdueAlerts} a where a.request_id = s.id)
      on conflict (request_id) do nothing
      returning request_id
    )
    select ${REMINDER_COLUMNS} from overdue o join ${submissions} s on s.id = o.request_id join ${privacyRecords} r on r.id = s.id
    order by s.due_at, s.id`);
  const requests = rowsOf<PrivacyRow>(result).map((row) => reminderOf(row, now));
  if (requests.length > 0) await queueToMembers(db, 'team-overdue', requests, render, members, now);
  return requests;
}
