import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/database.ts';
import { ANALYZE_THRESHOLD_ROWS, analyzePglite, vacuumPglite } from '../../server/db/maintenance.ts';
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

describe('the analyze PGlite does not run by itself', () => {
  const settings = { limitPerWindow: 10, windowMs: 60_000, announce: true };
  const store = (database: Awaited<ReturnType<typeof openPglite>>, count: number, from: number) =>
    acceptSubmissions(
      database.db,
      Array.from({ length: count }, (_, i) => ({ body: submissionBody(), idempotencyKey: null, clientIp: `10.0.${(from + i) >> 8}.${(from + i) & 255}` })),
      settings,
    );

  it("analyzes a request table once more rows than autovacuum's rule changed since its last analyze, and not before", async () => {
    const database = await openPglite();
    try {
      const tuples = async (name: string) =>
        Number(rowsOf<{ reltuples: number }>(await database.db.execute(sql`select reltuples from pg_class where relname = ${name}`))[0]?.reltuples);
      expect(await analyzePglite(database)).toEqual([]); // nothing changed: empty tables stay unanalyzed
      expect(await tuples('submissions')).toBe(-1);

      // 50 changed rows: not more than the threshold
      await store(database, ANALYZE_THRESHOLD_ROWS, 0);
      expect(await analyzePglite(database)).toEqual([]);
      expect(await tuples('submissions')).toBe(-1);

      // one more: each stored request and its announcement (deliveries) are analyzed, and planned as they are
      await store(database, 1, 50);
      expect(await analyzePglite(database)).toEqual(['deliveries', 'submissions']);
      expect(await tuples('submissions')).toBe(51);
      expect(await analyzePglite(database)).toEqual([]);

      // the next analyze waits for 50 + 10 % of the 51 rows (55.1) changed rows
      await store(database, 55, 51);
      expect(await analyzePglite(database)).toEqual([]);
      await store(database, 1, 106);
      expect(await analyzePglite(database)).toEqual(['deliveries', 'submissions']);
      expect(await tuples('submissions')).toBe(107);
    } finally {
      await database.close();
    }
  });

  it('does nothing on PostgreSQL, whose autovacuum runs by itself', async () => {
    const untouched = new Proxy({}, { get: () => { throw new Error('the database was used'); } });
    expect(await analyzePglite({ engine: 'postgres', db: untouched as never })).toEqual([]);
  });
});
