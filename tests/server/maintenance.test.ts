import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/database.ts';
import { vacuumPglite } from '../../server/db/maintenance.ts';
import { openPglite } from '../support/database.ts';

describe('the vacuum PGlite does not run by itself', () => {
  it('vacuums and analyzes the request tables on PGlite (their statistics exist afterwards)', async () => {
    const database = await openPglite(); // a migrated copy, never analyzed
    try {
      const tuples = async () =>
        rowsOf<{ relname: string; reltuples: number }>(
          await database.db.execute(sql`select relname, reltuples from pg_class where relname in ('submissions', 'privacy_records', 'timeline', 'deliveries') order by relname`),
        );
      // never analyzed: -1 (PostgreSQL 14 and later)
      expect((await tuples()).map((t) => Number(t.reltuples))).toEqual([-1, -1, -1, -1]);
      expect(await vacuumPglite(database)).toBe(true);
      expect((await tuples()).map((t) => Number(t.reltuples))).toEqual([0, 0, 0, 0]);
    } finally {
      await database.close();
    }
  });

  it('does nothing on PostgreSQL, whose autovacuum runs by itself', async () => {
    const untouched = new Proxy({}, { get: () => { throw new Error('the database was used'); } });
    expect(await vacuumPglite({ engine: 'postgres', db: untouched as never })).toBe(false);
  });
});
