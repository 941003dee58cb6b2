import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema.ts';

/** The versioned SQL migrations, applied in order at start (generated from schema.ts). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Drizzle over either driver: the same queries run on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database: its Drizzle handle, which engine it is, and how to close it. */
export interface Database {
  db: Db;
  /** `pglite` (embedded, one process) or `postgres` (a server, any number of instances) */
  engine: 'pglite' | 'postgres';
  /** Resolves when `select 1` answers; rejects when the database is unreachable. */
  ping(): Promise<void>;
  /** Closes the connections (PostgreSQL) or flushes and closes the data directory (PGlite); idempotent. */
  close(): Promise<void>;
}

/** Where the database is: a `postgres://` URL, or PGlite in a directory (`memory://` for tests). */
export type DatabaseLocation = { url: string } | { pgliteDir: string };

/** `fn` run on the first call only; later calls get the first call's promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/**
 * Connections per server instance to PostgreSQL. Measured with `npm run bench -- --only=api` on 2 cores:
 * 4 gave 1,339 submissions/s, 10 gave 1,754/s; 20 was no faster than 10 without HTTP (1,908 vs 2,025/s).
 */
export const POSTGRES_POOL_SIZE = 10;

// Any number taken by this app only: serialises migrations when several instances start at once.
const MIGRATION_LOCK_ID = 7_341_902;

/**
 * Opens the database and applies every pending migration (server/db/migrations/).
 * With `{ url }` it connects to PostgreSQL with postgres.js (pool of `maxConnections`, default
 * {@link POSTGRES_POOL_SIZE}); several server
 * instances may start at once: a PostgreSQL advisory lock runs the migrations one at a time.
 * With `{ pgliteDir }` it opens PGlite there (created on demand; `memory://` keeps nothing).
 * @throws the driver's error when the database cannot be reached or a migration fails.
 */
export async function openDatabase(location: DatabaseLocation, options: { maxConnections?: number } = {}): Promise<Database> {
  if ('url' in location) {
    const lockClient = postgres(location.url, { max: 1, onnotice: () => {} });
    try {
      await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
      await migratePostgres(drizzlePostgres(lockClient), { migrationsFolder: MIGRATIONS_FOLDER });
      await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
    } finally {
      await lockClient.end();
    }
    const client = postgres(location.url, { max: options.maxConnections ?? POSTGRES_POOL_SIZE, onnotice: () => {} });
    const db = drizzlePostgres(client, { schema });
    return {
      db,
      engine: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: once(() => client.end({ timeout: 5 })),
    };
  }
  if (!location.pgliteDir.startsWith('memory://')) await mkdir(location.pgliteDir, { recursive: true });
  const client = await PGlite.create(location.pgliteDir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db,
    engine: 'pglite',
    ping: async () => {
      if (client.closed) throw new Error('PGlite is closed');
      await client.query('select 1');
    },
    close: once(() => client.close()),
  };
}
