import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/database.ts';
import { vacuumPglite } from '../../server/db/maintenance.ts';
import { acceptSubmissions } from '../../server/db/submissions.ts';
import { submissionBody } from '../support/submissionBody.ts';
import { openPglite } from '../support/database.ts';

describe('the vacuum PGlite does not run by itself', () => {
  it('vacuums and analyzes the request tables that hold rows on PGlite; an empty one keeps no statistics saying it is empty', async () => {
    const database = await openPglite(); // a migrated copy, never analyzed
    try {
      const tuples = async () =>
        rowsOf<{ relname: string; reltuples: number }>(
          await database.db.execute(sql`select relname, reltuples from pg_class where relname in ('submissions', 'privacy_records', 'timeline', 'deliveries') order by relname`),
        );
      const vacuums = async () =>
        rowsOf<{ relname: string; vacuumed: boolean }>(
          await database.db.execute(sql`select relname, last_vacuum is not null as vacuumed from pg_stat_user_tables where relname in ('submissions', 'privacy_records', 'timeline', 'deliveries') order by relname`),
        );
      // never analyzed: -1 (PostgreSQL 14 and later)
      expect((await tuples()).map((t) => Number(t.reltuples))).toEqual([-1, -1, -1, -1]);
      expect(await vacuumPglite(database)).toBe(true);
      expect((await tuples()).map((t) => Number(t.reltuples))).toEqual([-1, -1, -1, -1]);
      expect((await vacuums()).map((t) => t.vacuumed)).toEqual([false, false, false, false]);

      await acceptSubmissions(database.db, [{ body: submissionBody(), idempotencyKey: null, clientIp: '192.0.2.1' }], { limitPerWindow: 10, windowMs: 60_000, announce: true });
      expect(await vacuumPglite(database)).toBe(true);
      // deliveries, privacy_records, submissions, timeline: the stored request and its announcement are counted
      expect((await tuples()).map((t) => Number(t.reltuples))).toEqual([1, -1, 1, -1]);
      expect((await vacuums()).map((t) => t.vacuumed)).toEqual([true, false, true, false]);
    } finally {
      await database.close();
    }
  });

  it('does nothing on PostgreSQL, whose autovacuum runs by itself', async () => {
    const untouched = new Proxy({}, { get: () => { throw new Error('the database was used'); } });
    expect(await vacuumPglite({ engine: 'postgres', db: untouched as never })).toBe(false);
  });
});
