import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import lockfile from 'proper-lockfile';
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

/** The rows of `db.execute(sql…)`, as either driver gives them: an array (postgres.js) or `{ rows }` (PGlite). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

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

/**
 * The mode of PGlite's data directory: the stored requests are personal data, so only the server's
 * operating-system user may read, write or enter it (`rwx------`). Set on creation and on every open,
 * so an older directory (0755, as `mkdir` made it under the usual umask) is tightened at start.
 */
export const PGLITE_DIR_MODE = 0o700;

/** The lock file beside PGlite's data that the process holding the directory keeps fresh. */
export const PGLITE_LOCK_FILE = '.sonde.lock';

/** A lock not refreshed for this long, in ms, belongs to a dead process (kill -9) and is taken over. */
export const PGLITE_LOCK_STALE_MS = 10_000;

/**
 * Takes the directory's lock, waiting up to `waitMs` for a dead holder's lock to go stale.
 * @returns a function that releases it
 * @throws Error "… is in use by another process" when a live process holds it
 */
async function lockPgliteDir(dir: string, waitMs: number): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dir, {
      lockfilePath: join(dir, PGLITE_LOCK_FILE),
      stale: PGLITE_LOCK_STALE_MS,
      update: PGLITE_LOCK_STALE_MS / 5,
      retries: { retries: Math.ceil(waitMs / 1000), minTimeout: 1000, maxTimeout: 1000 },
      // Losing the lock (the disk stalled past `stale`) must not crash the server mid-request.
      onCompromised: (error) => console.error(`[database] the lock on ${dir} was compromised: ${error.message}`),
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new Error(`${dir} is in use by another process (a running Sonde server?)`, { cause: error });
    }
    throw error;
  }
}

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
 * With `{ pgliteDir }` it opens PGlite there (created on demand; `memory://` keeps nothing), holding
 * the directory's lock ({@link PGLITE_LOCK_FILE}) until `close()`, the directory's mode set to
 * {@link PGLITE_DIR_MODE}. The team's command line reaches a running server's PGlite through the server
 * (server/cli/teamChannel.ts), never by opening the directory a second time.
 * @param options - `lockWaitMs`: how long to wait for a dead process's lock to go stale (default
 *   {@link PGLITE_LOCK_STALE_MS} + 2 s, so that a restart after kill -9 succeeds); `pgliteTemplate`: a
 *   PGlite `dumpDataDir()` tarball that a new PGlite database starts from (the tests start each database
 *   from one migrated copy); PGlite refuses it with "Database already exists" where the directory holds one
 * @throws the driver's error when the database cannot be reached or a migration fails; Error "… is in
 *   use by another process" when another live process holds the PGlite directory.
 */
export async function openDatabase(
  location: DatabaseLocation,
  options: { maxConnections?: number; lockWaitMs?: number; pgliteTemplate?: Blob } = {},
): Promise<Database> {
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
  const dir = location.pgliteDir;
  const inMemory = dir.startsWith('memory://');
  let release = async () => {};
  if (!inMemory) {
    await mkdir(dir, { recursive: true, mode: PGLITE_DIR_MODE });
    await chmod(dir, PGLITE_DIR_MODE); // mkdir leaves an existing directory's mode as it was
    release = await lockPgliteDir(dir, options.lockWaitMs ?? PGLITE_LOCK_STALE_MS + 2_000);
  }
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(dir, options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {});
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const pglite = client;
    return {
      db,
      engine: 'pglite',
      ping: async () => {
        if (pglite.closed) throw new Error('PGlite is closed');
        await pglite.query('select 1');
      },
      close: once(async () => {
        await pglite.close();
        await release();
      }),
    };
  } catch (error) {
    await client?.close().catch(() => {});
    await release();
    throw error;
  }
}
