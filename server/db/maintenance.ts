import { sql } from 'drizzle-orm';
import type { Database } from './database.ts';
import { deliveries, privacyRecords, submissions, timeline } from './schema.ts';

/**
 * What PostgreSQL's autovacuum does, for PGlite, which has none (one process, no background workers):
 * `VACUUM (ANALYZE)` of the tables that grow with the requests (submissions, their privacy records, timeline and
 * outbox). Without it, PGlite never marks a page all-visible, so every
 * scan checks each row's visibility one by one, and never gathers statistics, so the planner guesses:
 * with 100,000 stored requests the queue's counts per state (server/db/queue.ts `queueCounts`, a scan of
 * every request on each page asked) took about 85 ms a call from the rows, and 35 ms from the index
 * `submissions_queue_counts` alone, which PostgreSQL reads without the rows only on pages a vacuum marked
 * all-visible (`npm run bench -- --only=queue`). Nothing to do on PostgreSQL, whose autovacuum runs by itself.
 * The server runs it after each retention purge (at start, then daily); on PGlite it holds the one
 * connection meanwhile (about 1.5 s for 100,000 requests the first time, far less once pages are all-visible).
 * @returns true when it ran (PGlite), false on PostgreSQL
 * @throws the driver's error when the vacuum fails (never inside a transaction: it cannot run in one)
 */
export async function vacuumPglite(database: Pick<Database, 'db' | 'engine'>): Promise<boolean> {
  if (database.engine !== 'pglite') return false;
  await database.db.execute(sql`vacuum (analyze) ${submissions}, ${privacyRecords}, ${timeline}, ${deliveries}`);
  return true;
}
