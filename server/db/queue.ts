import { and, desc, eq, gte, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { SubmissionKind } from '#shared/submission';
import type { Db } from './database.ts';
import { cohorts, privacyRecords, submissions, type ReviewState } from './schema.ts';

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
export const FIRST_OF_MAILBOX = sql<string | null>`(
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

/** The team's `list`: every request matching the filters, newest first. */
export function listRequests(db: Db, filters: QueueFilters): Promise<QueueEntry[]> {
  const where: SQL[] = [];
  if (filters.kind) where.push(eq(submissions.kind, filters.kind));
  if (filters.status) where.push(filters.status === 'open' ? isNull(submissions.handledAt) : isNotNull(submissions.handledAt));
  if (filters.since) where.push(gte(submissions.receivedAt, filters.since));
  if (filters.state) where.push(eq(submissions.reviewState, filters.state));
  else where.push(or(isNull(submissions.reviewState), ne(submissions.reviewState, 'spam'))!);
  if (filters.cohort !== undefined) where.push(eq(cohorts.name, filters.cohort));
  return db
    .select(queueColumns)
    .from(submissions)
    .leftJoin(privacyRecords, eq(privacyRecords.id, submissions.id))
    .leftJoin(cohorts, eq(cohorts.id, submissions.cohortId))
    .where(and(...where))
    .orderBy(desc(submissions.receivedAt));
}
