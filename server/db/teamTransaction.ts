import { sql } from 'drizzle-orm';
import type { Db } from './database.ts';

/**
 * The transaction-scoped advisory lock every team command that writes takes first (PostgreSQL
 * `pg_advisory_xact_lock`; any number taken by this app only): two such commands, from any number of
 * terminals, never interleave their checks and writes.
 */
export const TEAM_WRITE_LOCK_ID = 7_341_903;

/**
 * Runs one team command's reads and writes as one transaction. `read`: one snapshot (repeatable read, read
 * only), so every row it prints is of one moment. `write`: the team's write lock first, so two commands
 * that change requests run one after the other, and every row it decides on is locked (`for update`)
 * until it commits, so a visitor's verification or the outbox cannot change it in between. On PGlite the
 * transaction also holds PGlite's transaction mutex: no other statement of the server runs inside it.
 * @returns what `work` returns, once the transaction has committed; throws what `work` throws (rolled back)
 */
export function inTeamTransaction<T>(db: Db, mode: 'read' | 'write', work: (db: Db) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      if (mode === 'write') await tx.execute(sql`select 1 from pg_advisory_xact_lock(${TEAM_WRITE_LOCK_ID}::bigint)`);
      return work(tx);
    },
    mode === 'read' ? { isolationLevel: 'repeatable read', accessMode: 'read only' } : { isolationLevel: 'read committed' },
  );
}
