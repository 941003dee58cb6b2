import { sql } from 'drizzle-orm';
import { dueBandEnds, type DueBand } from '#shared/dueBand';
import type { SubmissionKind } from '#shared/submission';
import { QUEUE_COUNTS_COMPACT_ROWS } from '../limits.ts';
import { rowsOf, type Db } from './database.ts';
import { compactQueueCounts } from './queue.ts';
import { deliveries, queueCounts, submissions, type OutboxChannel } from './schema.ts';

/**
 * Where a delivery not yet delivered nor given up stands: `queued` (due, never tried), `scheduled` (never
 * tried, due later: a confirmation waiting for its mailbox's next slot), `sending` (under a sender's
 * lease), `retrying` (tried and failed, waiting for its next attempt).
 */
export type PendingState = 'queued' | 'scheduled' | 'sending' | 'retrying';

/** What the metrics read from the database at a scrape (server/metrics.ts). */
export interface DatabaseGauges {
  /** requests per kind and queue state (`queue_state`: an invite's review state, a privacy request's `open` or `done`) */
  requests: Array<{ kind: SubmissionKind; state: string; n: number }>;
  /**
   * privacy requests not answered yet per due band (shared/dueBand.ts): `overdue` once the due date has
   * passed (11 CCR §7021(b), as the course chart and the queue's overdue count say, not a day later as the
   * console's badge shows it), else by the whole days left as the console's colours
   */
  openPrivacy: Record<DueBand, number>;
  /**
   * deliveries neither delivered nor given up, per channel and {@link PendingState}, with how long the
   * oldest of them has waited since it was first due, in seconds (null for `scheduled`, not due yet)
   */
  pending: Array<{ channel: OutboxChannel; state: PendingState; n: number; oldestSeconds: number | null }>;
}

/**
 * Reads the gauges of the server's metrics, in three statements whose cost grows with what is waiting,
 * not with what is stored:
 * - the requests per kind and state from `queue_counts` (server/db/functions/queue_counts.sql): its rows,
 *   at most a day's stored requests between two daily folds; folded here too once they pass
 *   {@link QUEUE_COUNTS_COMPACT_ROWS}, as the console's counts do (server/db/queue.ts `queueCounts`);
 * - the open privacy requests due within 10 days or overdue, counted per band from the index
 *   `submissions_queue_counts` (kind, review_state, handled_at, due_at): a range of it, read without the
 *   rows; `later` is the open ones of `queue_counts` less those;
 * - the deliveries waiting, from the partial index `deliveries_waiting_mailbox`, whose predicate is
 *   exactly "not delivered, not given up": the rows waiting, never the delivered ones.
 * @param now - the clock the due dates are counted against (the deliveries' ages are the database's, as the outbox's)
 * @throws the driver's error when a statement fails
 */
export async function readDatabaseGauges(db: Db, now: Date): Promise<DatabaseGauges> {
  const ends = dueBandEnds(now);
  const [counted, openPrivacy, pending] = await Promise.all([
    db
      .select({ kind: queueCounts.kind, state: queueCounts.state, n: sql<number>`sum(${queueCounts.n})::int`, rows: sql<number>`count(*)::int` })
      .from(queueCounts)
      .groupBy(queueCounts.kind, queueCounts.state),
    db.execute(sql`
      select count(*) filter (where ${submissions.dueAt} <= ${now.toISOString()}::timestamptz)::int as overdue,
        count(*) filter (where ${submissions.dueAt} <= ${ends.under_5_days.toISOString()}::timestamptz)::int as under_5_days,
        count(*)::int as under_10_days
      from ${submissions}
      where ${submissions.kind} = 'privacy' and ${submissions.reviewState} is null and ${submissions.handledAt} is null
        and ${submissions.dueAt} <= ${ends.under_10_days.toISOString()}::timestamptz`),
    db.execute(sql`
      select channel, state, count(*)::int as n,
        extract(epoch from now() - min(first_due))::float8 as oldest_seconds
      from (
        select ${deliveries.channel} as channel,
          case when ${deliveries.lockedUntil} > now() then 'sending'
               when ${deliveries.attempts} > 0 then 'retrying'
               when ${deliveries.nextAttemptAt} > now() then 'scheduled'
               else 'queued' end as state,
          case when ${deliveries.attempts} > 0 then ${deliveries.createdAt} else ${deliveries.nextAttemptAt} end as first_due
        from ${deliveries}
        where ${deliveries.deliveredAt} is null and ${deliveries.failedAt} is null
      ) as waiting
      group by 1, 2`),
  ]);
  if (counted.reduce((rows, row) => rows + row.rows, 0) > QUEUE_COUNTS_COMPACT_ROWS) await compactQueueCounts(db);
  // cumulative counts (due by each band's end) into one count per band
  const [due] = rowsOf<{ overdue: number; under_5_days: number; under_10_days: number }>(openPrivacy);
  const open = counted.filter((row) => row.kind === 'privacy' && row.state === 'open').reduce((n, row) => n + row.n, 0);
  const [overdue, under5, under10] = [Number(due?.overdue ?? 0), Number(due?.under_5_days ?? 0), Number(due?.under_10_days ?? 0)];
  return {
    requests: counted.filter((row) => row.n !== 0).map(({ kind, state, n }) => ({ kind, state, n })),
    openPrivacy: { overdue, under_5_days: under5 - overdue, under_10_days: under10 - under5, later: Math.max(0, open - under10) },
    pending: rowsOf<{ channel: OutboxChannel; state: PendingState; n: number; oldest_seconds: number }>(pending).map((row) => ({
      channel: row.channel,
      state: row.state,
      n: Number(row.n),
      oldestSeconds: row.state === 'scheduled' ? null : Number(row.oldest_seconds),
    })),
  };
}
