import { and, asc, count, desc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { RETENTION } from '#shared/policy';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { rowsOf, type Db } from './database.ts';
import { deliveries, erasures, mailQuota, privacyRecords, privacyVerifications, submissions, timeline } from './schema.ts';
import { MAIL_LIMITS } from '../limits.ts';
import { addressOf, mailboxOf, sha256Hex } from './mailbox.ts';
import { historyOf } from './privacyAnswers.ts';
import { purgeTeamSessions } from './teamSessions.ts';

/**
 * Deletes every request sent from the address `email` ({@link addressOf}: the domain in any case, the
 * local part as sent; no other spelling of its mailbox: a `+tag` or dotted Gmail address may be someone else's, and is erased only on
 * its own verified request) and, in the same statement, keeps an erasure record: SHA-256 of the address,
 * the time, the count; and drops what the mail limits counted of its mailbox (hashes and times, gone
 * within a day anyway). What a Delete request needs.
 * @returns how many requests were deleted (0 is recorded too: the request was carried out)
 */
export async function eraseSubject(db: Db, email: string): Promise<number> {
  const address = addressOf(email);
  const result = await db.execute(sql`
    with gone as (delete from ${submissions} where email = ${address}::text returning 1),
    quota as (delete from ${mailQuota} where email_sha256 = ${sha256Hex(mailboxOf(email))}::text)
    insert into ${erasures} (email_sha256, submissions) select ${sha256Hex(address)}::text, count(*)::int from gone
    returning submissions`);
  return Number(rowsOf<{ submissions: number }>(result)[0]?.submissions ?? 0);
}

/**
 * Deletes what the privacy policy's retention periods have passed at `now` (src/content/privacyPolicy.ts,
 * shared/policy.ts): invite requests received more than 18 months before, privacy-request records more
 * than 24 months before; the verification links of privacy requests answered or past due; and the
 * console's ended sessions and unanswered WebAuthn challenges (server/db/teamSessions.ts).
 * @returns how many of each were deleted
 */
export async function purgeExpired(
  db: Db,
  now: Date,
): Promise<{ invite: number; privacy: number; records: number; verificationLinks: number; deliveryIds: string[]; teamSessions: number; teamChallenges: number }> {
  const monthsBefore = (months: number) => sql`${now.toISOString()}::timestamptz - make_interval(months => ${months}::int)`;
  const expired = or(
    and(eq(submissions.kind, 'invite'), lt(submissions.receivedAt, monthsBefore(RETENTION.applicationMonths))),
    and(eq(submissions.kind, 'privacy'), lt(submissions.receivedAt, monthsBefore(RETENTION.privacyRequestRecordMonths))),
  );
  // the deliveries that go with them (the caller deletes their .eml files)
  const expiredDeliveries = await db.select({ id: deliveries.id }).from(deliveries).innerJoin(submissions, eq(submissions.id, deliveries.submissionId)).where(expired);
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
  // the console's sessions past their idle or absolute end, and WebAuthn challenges never answered
  const team = await purgeTeamSessions(db, now);
  return {
    invite: gone.filter((r) => r.kind === 'invite').length,
    privacy: gone.filter((r) => r.kind === 'privacy').length,
    records: records.length,
    verificationLinks: rowsOf(spent).length,
    deliveryIds: expiredDeliveries.map((d) => d.id),
    teamSessions: team.sessions,
    teamChallenges: team.challenges,
  };
}

/** A stored row as the team's tools and the subject export show it: everything but the rate limit's IP hash, the checksum and the search text (made of the body). */
export function storedView(row: typeof submissions.$inferSelect): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'clientKey' && key !== 'bodySha256' && key !== 'searchText'));
}

/**
 * Everything stored about one person, by the address of an email ({@link addressOf}: the domain in any case,
 * the local part as sent; another case of the local part or another spelling of its mailbox, a `+tag` or dotted Gmail address, is another address): every request sent
 * from it with its metadata, every
 * delivery the requests caused (under `notifications`, the key the `subject` command
 * prints), and the team's decisions and notes on them (`timeline`). What an Access/Know or Data Portability request is answered with
 * (`npm run requests -- subject`, and the attachment of `respond --attach-subject`).
 */
export async function subjectExport(
  db: Db,
  email: string,
): Promise<{ email: string; requests: Array<Record<string, unknown>>; notifications: unknown[]; timeline: unknown[] }> {
  const address = addressOf(email);
  const rows = await db.select().from(submissions).where(eq(submissions.email, address)).orderBy(desc(submissions.receivedAt));
  const sent = await db
    .select({ delivery: deliveries })
    .from(deliveries)
    .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
    .where(eq(submissions.email, address));
  const entries = rows.length ? await db.select().from(timeline).where(inArray(timeline.submissionId, rows.map((row) => row.id))).orderBy(asc(timeline.at), asc(sql`${timeline.action} = 'note'`)) : [];
  // a mail not delivered yet is kept rendered, with a live verification link: not for the team's terminal
  return { email: address, requests: rows.map(storedView), notifications: sent.map(({ delivery }) => ({ ...delivery, rendered: undefined })), timeline: entries };
}

/** The ids of every delivery of the requests sent from the address `email` ({@link addressOf}): `erase` deletes their .eml files. */
export async function deliveryIdsOf(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
    .where(eq(submissions.email, addressOf(email)));
  return rows.map((row) => row.id);
}

/**
 * How many requests came from other spellings of the mailbox of `email` (server/db/mailbox.ts `mailboxOf`:
 * a `+tag`, Gmail's dots, googlemail.com) than its address ({@link addressOf}): what `subject` and `erase`
 * leave out, since each may be someone else's, and tell the team of, so that none is missed unseen.
 */
export async function otherSpellingsOf(db: Db, email: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(submissions)
    .where(and(eq(submissions.mailbox, mailboxOf(email)), ne(submissions.email, addressOf(email))));
  return row?.n ?? 0;
}

/** How many mails about the requests sent from the address `email` ({@link addressOf}) are still waiting in the outbox: `erase` would delete them unsent. */
export async function pendingMailTo(db: Db, email: string): Promise<number> {
  const rows = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
    .where(
      and(
        eq(submissions.email, addressOf(email)),
        eq(deliveries.channel, 'mail'),
        sql`${deliveries.message} <> 'team-new-request'`,
        isNull(deliveries.deliveredAt),
        isNull(deliveries.failedAt),
      ),
    );
  return rows.length;
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
  /** invite requests: where the team's review stands (received, waitlisted, accepted, declined, spam) */
  state?: string;
  /** every field they sent (spec §7.1), metadata included */
  data: SubmissionBody['data'];
  /** privacy requests: the record of 11 CCR §7101, oldest first, without the team member's name */
  history?: Array<Record<string, string>>;
}

/**
 * What a requester is sent as their data (`respond --attach-subject`: the answer to Access/Know, 11 CCR
 * §7024, or Data Portability): the requests {@link subjectExport} finds for their address, those sent
 * from exactly the address the request came from and its mail goes to (11 CCR §7060–§7062), each with every
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
        ...(row.reviewState ? { state: row.reviewState } : {}),
        data: row.body.data,
        ...(record ? { history: historyOf(record, { withTeam: false }) } : {}),
      };
    }),
  };
}
