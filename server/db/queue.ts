import { and, count, desc, eq, gte, inArray, isNotNull, like, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { SubmissionKind } from '#shared/submission';
import { QUEUE_COUNTS_COMPACT_ROWS } from '../limits.ts';
import type { Db } from './database.ts';
import { addressOf } from './mailbox.ts';
import { cohorts, privacyRecords, queueCounts as queueCountsTable, submissions, type ReviewState } from './schema.ts';

type Row = typeof submissions.$inferSelect;
type PrivacyRecordRow = typeof privacyRecords.$inferSelect;

/** What the team's queue can be narrowed to. */
export interface QueueFilters {
  kind?: SubmissionKind;
  /** open: not yet decided or answered; done: decided or answered */
  status?: 'open' | 'done';
  /** invite requests in this state of the review; without it, spam is left out (spam is hidden from the queue) */
  state?: ReviewState;
  /** invite requests accepted into the cohort of this name */
  cohort?: string;
  since?: Date;
  /** case-insensitive text in the name, the email or the company (`submissions.search_text`; `%` and `_` match themselves) */
  q?: string;
  /** privacy requests still open whose due date is before this instant (the console's `state=overdue`) */
  overdueAt?: Date;
}

/** One request of the queue: its row, its privacy record, its cohort's name, and the earlier request it repeats. */
export interface QueueEntry {
  submissions: Row;
  privacy_records: PrivacyRecordRow | null;
  /** an accepted invite request's cohort; null otherwise */
  cohort: string | null;
  /**
   * the first request of the same kind from the same mailbox (`mailbox`: the normalised address), when
   * this one came later: the team decides once per applicant, not once per form sent; null otherwise
   */
  duplicateOf: string | null;
}

/**
 * The first earlier request of the same kind from the same mailbox, if any (uses the index on `mailbox`).
 * The outer row's columns are named with their table: Drizzle leaves a column unqualified in a query
 * without joins, where the subquery's own `o` would take it.
 */
const FIRST_OF_MAILBOX = sql<string | null>`(
  select o.id from ${submissions} o
  where o.mailbox = "submissions"."mailbox" and o.kind = "submissions"."kind" and o.received_at < "submissions"."received_at"
  order by o.received_at limit 1)`;

const queueColumns = { submissions, privacy_records: privacyRecords, cohort: cohorts.name, duplicateOf: FIRST_OF_MAILBOX };

/** One request as the queue shows it (`show`); undefined when it is not stored. */
export async function findQueueEntry(db: Db, id: string): Promise<QueueEntry | undefined> {
  const [entry] = await db
    .select(queueColumns)
    .from(submissions)
    .leftJoin(privacyRecords, eq(privacyRecords.id, submissions.id))
    .leftJoin(cohorts, eq(cohorts.id, submissions.cohortId))
    .where(eq(submissions.id, id));
  return entry;
}

/** These requests as the queue shows them, in no order; an id not stored is absent. */
export function findQueueEntries(db: Db, ids: readonly string[]): Promise<QueueEntry[]> {
  return db
    .select(queueColumns)
    .from(submissions)
    .leftJoin(privacyRecords, eq(privacyRecords.id, submissions.id))
    .leftJoin(cohorts, eq(cohorts.id, submissions.cohortId))
    .where(inArray(submissions.id, [...ids]));
}

/**
 * The conditions of {@link QueueFilters}, the one place they are written: `list`, the console's pages
 * and its counts all use them. Spam is left out unless `state` asks for it, or `spam` is `include`.
 * The `cohort` filter names `cohorts`, which each query joins (the counts only with that filter).
 */
function queueWhere(filters: QueueFilters, spam: 'exclude' | 'include' = 'exclude'): SQL[] {
  const where: SQL[] = [];
  if (filters.kind) where.push(eq(submissions.kind, filters.kind));
  if (filters.status) where.push(filters.status === 'open' ? isNull(submissions.handledAt) : isNotNull(submissions.handledAt));
  if (filters.since) where.push(gte(submissions.receivedAt, filters.since));
  if (filters.state) where.push(eq(submissions.reviewState, filters.state));
  else if (spam === 'exclude') where.push(or(isNull(submissions.reviewState), ne(submissions.reviewState, 'spam'))!);
  if (filters.cohort !== undefined) where.push(eq(cohorts.name, filters.cohort));
  if (filters.overdueAt) where.push(isNull(submissions.handledAt), lt(submissions.dueAt, filters.overdueAt));
  if (filters.q) {
    const pattern = `%${filters.q.replace(/[\\%_]/g, '\\$&')}%`;
    where.push(like(submissions.searchText, sql`lower(${pattern})`));
  }
  return where;
}

/** The team's `list`: every request matching the filters, newest first (ties by id, descending, as the console's pages). */
export function listRequests(db: Db, filters: QueueFilters): Promise<QueueEntry[]> {
  return db
    .select(queueColumns)
    .from(submissions)
    .leftJoin(privacyRecords, eq(privacyRecords.id, submissions.id))
    .leftJoin(cohorts, eq(cohorts.id, submissions.cohortId))
    .where(and(...queueWhere(filters)))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id));
}

/** Where a page of the queue ends: the last row's `received_at` (PostgreSQL's text of it, to the microsecond) and id. */
export interface QueueCursor {
  receivedAt: string;
  id: string;
}

/**
 * One page of the queue, newest first, by keyset on (`received_at` desc, `id` desc): a page starts
 * strictly after the cursor's row, so requests stored between two pages (newer, so before the first
 * page) neither shift nor repeat the rows of the next.
 * @param page - `after`: the previous page's `next`; `limit`: rows wanted (the caller bounds it)
 * @returns the entries and, when more rows follow, the cursor of the last one; null when none follow
 */
export async function queuePage(db: Db, filters: QueueFilters, page: { after?: QueueCursor; limit: number }): Promise<{ entries: QueueEntry[]; next: QueueCursor | null }> {
  const where = queueWhere(filters);
  if (page.after) where.push(sql`(${submissions.receivedAt}, ${submissions.id}) < (${page.after.receivedAt}::timestamptz, ${page.after.id}::uuid)`);
  const rows = await db
    .select({ ...queueColumns, cursorAt: sql<string>`${submissions.receivedAt}::text` })
    .from(submissions)
    .leftJoin(privacyRecords, eq(privacyRecords.id, submissions.id))
    .leftJoin(cohorts, eq(cohorts.id, submissions.cohortId))
    .where(and(...where))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id))
    .limit(page.limit + 1);
  const entries = rows.slice(0, page.limit);
  const last = entries.at(-1);
  return {
    entries: entries.map(({ cursorAt, ...entry }) => (void cursorAt, entry)),
    next: rows.length > page.limit && last ? { receivedAt: last.cursorAt, id: last.submissions.id } : null,
  };
}

/**
 * Where a request stands in the queue: an invite request's review state, a privacy request's `open` or
 * `done` (`queue_state`, server/db/functions/queue_counts.sql, the one definition).
 */
const QUEUE_STATE = sql<string>`queue_state(${submissions.reviewState}, ${submissions.handledAt})`;

/**
 * How many requests of the filters (all but the state: the counts are what each state would show)
 * are in each state ({@link QUEUE_STATE}, spam included), and `overdue`, the open privacy requests past
 * their due date at `now` (counted in `open` too). Without a date, cohort or text filter, the counts per
 * state are read from `queue_counts`, which triggers keep (server/db/functions/queue_counts.sql), and
 * only the overdue ones from the requests; with one, from the requests alone.
 * Folds `queue_counts` once it holds more than {@link QUEUE_COUNTS_COMPACT_ROWS} rows (of every kind);
 * the server also folds it daily, after the retention purge (server/main.ts).
 * @returns a count per state present; a state with none is absent
 */
export async function queueCounts(db: Db, filters: QueueFilters, now: Date): Promise<Record<string, number>> {
  if (filters.since !== undefined || filters.q || filters.cohort !== undefined) return queueCountsOfRows(db, filters, now);
  const [states, overdue] = await Promise.all([
    // every kind's, so that the rows counted for the fold are all of them; the filter's kind is picked below
    db
      .select({ kind: queueCountsTable.kind, state: queueCountsTable.state, n: sql<number>`sum(${queueCountsTable.n})::int`, rows: count() })
      .from(queueCountsTable)
      .groupBy(queueCountsTable.kind, queueCountsTable.state),
    filters.kind === 'invite'
      ? []
      : // the open privacy requests past due (a privacy request has no review state: named, so that they are a
        // range of the index `submissions_queue_counts`, on kind, review_state, handled_at and due_at)
        db
          .select({ n: count() })
          .from(submissions)
          .where(and(...queueWhere({ kind: 'privacy', overdueAt: now }, 'include'), isNull(submissions.reviewState))),
  ]);
  const counts: Record<string, number> = {};
  for (const row of states) if (row.n !== 0 && (!filters.kind || row.kind === filters.kind)) counts[row.state] = (counts[row.state] ?? 0) + row.n;
  const late = overdue[0]?.n ?? 0;
  if (late > 0) counts.overdue = late;
  if (states.reduce((rows, row) => rows + row.rows, 0) > QUEUE_COUNTS_COMPACT_ROWS) await compactQueueCounts(db);
  return counts;
}

/** {@link queueCounts} from the requests themselves: every request of the filters is read (from the index `submissions_queue_counts`). */
async function queueCountsOfRows(db: Db, filters: QueueFilters, now: Date): Promise<Record<string, number>> {
  const where = queueWhere({ ...filters, state: undefined, status: undefined, overdueAt: undefined }, 'include');
  const overdue = sql<number>`(${submissions.handledAt} is null and ${submissions.dueAt} < ${now.toISOString()}::timestamptz)`;
  // No join but the cohort filter's: every other condition is on the row itself, so PostgreSQL reads the
  // counts from an index alone (`submissions_queue_counts`), as it does not with a join even one it drops
  const query = db.select({ key: QUEUE_STATE, overdue, n: count() }).from(submissions);
  const rows = await (filters.cohort === undefined ? query : query.innerJoin(cohorts, eq(cohorts.id, submissions.cohortId)))
    .where(and(...where))
    // by position: the clock is a parameter, which PostgreSQL would not see as the same expression twice
    .groupBy(sql`1, 2`);
  const counts: Record<string, number> = {};
  for (const row of rows) {
    counts[row.key] = (counts[row.key] ?? 0) + Number(row.n);
    if (row.overdue) counts.overdue = (counts.overdue ?? 0) + Number(row.n);
  }
  return counts;
}

/**
 * Folds the rows of `queue_counts` into one per kind and state (none for a count of 0), in one statement:
 * rows appended meanwhile by other transactions are not in its snapshot, so they stay as they are, and a
 * second fold at once waits for the first and then finds its rows gone. Counts are unchanged.
 */
export async function compactQueueCounts(db: Db): Promise<void> {
  await db.execute(sql`
    with gone as (delete from ${queueCountsTable} returning kind, state, n)
    insert into ${queueCountsTable} (kind, state, n)
    select kind, state, sum(n)::int from gone group by kind, state having sum(n) <> 0`);
}

/** Another request from the same mailbox, as a request's page lists it. */
export interface MailboxSibling {
  id: string;
  kind: SubmissionKind;
  receivedAt: Date;
  /** an invite's review state; a privacy request's `open` or `done` */
  state: string;
  /** the address it came from (`submissions.email`: the domain lower-cased) */
  email: string;
  /**
   * true: from the very address of the request ({@link addressOf}), so in that address's export and
   * erasure; false: another spelling of its mailbox (another case, a `+tag`, Gmail's dots, googlemail.com), which may
   * be the same person or not, and is disclosed or erased only on its own verified request
   */
  sameAddress: boolean;
}

/**
 * The other requests from a request's mailbox (any spelling of the address: server/db/mailbox.ts `mailboxOf`), newest
 * first, each saying whether it came from the very same address.
 */
export function otherRequestsOf(db: Db, request: { id: string; mailbox: string; email: string }): Promise<MailboxSibling[]> {
  return db
    .select({
      id: submissions.id,
      kind: submissions.kind,
      receivedAt: submissions.receivedAt,
      state: QUEUE_STATE,
      email: submissions.email,
      sameAddress: sql<boolean>`${submissions.email} = ${addressOf(request.email)}::text`,
    })
    .from(submissions)
    .where(and(eq(submissions.mailbox, request.mailbox), ne(submissions.id, request.id)))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id));
}
