import { getTableName, sql } from 'drizzle-orm';
import { rowsOf, type Database } from './database.ts';
import { deliveries, privacyRecords, queueCounts, submissions, timeline } from './schema.ts';

/** The tables that grow with the requests: vacuumed and analyzed once they hold rows ({@link vacuumPglite}, {@link analyzePglite}). */
const GROWING_TABLES = [submissions, privacyRecords, timeline, deliveries] as const;
/**
 * What {@link vacuumPglite} vacuums: those, and `queue_counts`, whose rows each fold of the counts deletes
 * (server/db/queue.ts `compactQueueCounts`); no plan of it needs fresh statistics, so {@link analyzePglite} leaves it.
 */
const VACUUMED_TABLES = [...GROWING_TABLES, queueCounts] as const;

/**
 * What PostgreSQL's autovacuum does, for PGlite, which has none (one process, no background workers):
 * `VACUUM (ANALYZE)` of the tables that grow with the requests (submissions, their privacy records, timeline
 * and outbox, and the queue's counts) that hold rows. Without it, PGlite never marks a page all-visible, so every
 * scan checks each row's visibility one by one, and never gathers statistics, so the planner guesses:
 * with 100,000 stored requests the queue's counts per state under a text filter (server/db/queue.ts
 * `queueCounts`, a scan of every request) took about 85 ms a call from the rows, and 35 ms from the index
 * `submissions_queue_counts` alone, which PostgreSQL reads without the rows only on pages a vacuum marked
 * all-visible (`npm run bench -- --only=queue`). Nothing to do on PostgreSQL, whose autovacuum runs by itself.
 *
 * An empty table is left alone: a vacuum or an analyze would record it as empty (`reltuples` 0) until the
 * next run, a day later, and the plans the one connection caches meanwhile (accept_submission's statements,
 * planned once per connection) would read it row by row however much it grows. A table never vacuumed
 * (`reltuples` -1) is planned as one of at least 10 pages, with its indexes. Measured on a new server's
 * first start (autocannon, 20 clients, 10 s, PGlite): 480 submissions/s with the empty tables analyzed, 861/s
 * without.
 *
 * The server runs it after each retention purge (at start, then daily); on PGlite it holds the one
 * connection meanwhile (about 1.5 s for 100,000 requests the first time, far less once pages are all-visible).
 * @returns true when it ran (PGlite), false on PostgreSQL
 * @throws the driver's error when the vacuum fails (never inside a transaction: it cannot run in one)
 */
export async function vacuumPglite(database: Pick<Database, 'db' | 'engine'>): Promise<boolean> {
  if (database.engine !== 'pglite') return false;
  for (const table of VACUUMED_TABLES) {
    const [held] = rowsOf<{ rows: boolean }>(await database.db.execute(sql`select exists (select from ${table}) as rows`));
    if (held?.rows) await database.db.execute(sql`vacuum (analyze) ${table}`);
  }
  return true;
}

/**
 * PostgreSQL's autovacuum analyze rule (`autovacuum_analyze_threshold` + `autovacuum_analyze_scale_factor`
 * × rows, its defaults: https://www.postgresql.org/docs/current/routine-vacuuming.html#AUTOVACUUM): a
 * table is analyzed again once more rows than this changed since its last analyze.
 */
export const ANALYZE_THRESHOLD_ROWS = 50;
/** @see {@link ANALYZE_THRESHOLD_ROWS}: the share of a table's rows, 10 % */
const ANALYZE_SCALE_FACTOR = 0.1;

/**
 * What autovacuum's analyze does between the daily {@link vacuumPglite} runs, for PGlite: each table that
 * grows with the requests is analyzed once the rows changed since its last analyze pass
 * {@link ANALYZE_THRESHOLD_ROWS} + {@link ANALYZE_SCALE_FACTOR} × the rows it held then. PGlite's one
 * connection caches accept_submission's plans, and a new analyze makes it plan them again: without it, a
 * table analyzed with a few rows would be planned as that small until the next day, however much it grew.
 * A table that never held a row is left alone, as {@link vacuumPglite} leaves it.
 *
 * The counts come from the cumulative statistics (`pg_stat_user_tables.n_mod_since_analyze`), which the
 * one process publishes lazily: they are flushed first (`pg_stat_force_next_flush`). The server calls it
 * every `ANALYZE_CHECK_INTERVAL_MS` (server/limits.ts) on PGlite.
 * @returns the names of the tables analyzed (none on PostgreSQL, whose autovacuum does this itself)
 * @throws the driver's error when a statement fails
 */
export async function analyzePglite(database: Pick<Database, 'db' | 'engine'>): Promise<string[]> {
  if (database.engine !== 'pglite') return [];
  await database.db.execute(sql`select pg_stat_force_next_flush()`);
  const names = GROWING_TABLES.map((table) => getTableName(table));
  const due = rowsOf<{ relname: string }>(
    await database.db.execute(sql`
      select s.relname from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.relname in ${names}
        and s.n_mod_since_analyze > ${ANALYZE_THRESHOLD_ROWS} + ${ANALYZE_SCALE_FACTOR} * greatest(c.reltuples, 0)
      order by s.relname`),
  ).map((row) => row.relname);
  for (const table of GROWING_TABLES) {
    if (due.includes(getTableName(table))) await database.db.execute(sql`analyze ${table}`);
  }
  return due;
}
