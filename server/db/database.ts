import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { PGLITE_LOCK_STALE_MS, POSTGRES_POOL_SIZE } from '../limits.ts';
import { lockPgliteDir, PGLITE_DIR_MODE } from './pgliteDir.ts';
import * as schema from './schema.ts';

/**
 * The versioned SQL migrations, applied in order at start, generated from schema.ts by drizzle-kit
 * (`npm run db:generate`). The history starts at `0000_baseline.sql`, the schema of release 0.1.0.
 */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * The SQL functions, one `<name>.sql` file each, applied after the migrations, in name order, and again
 * whenever a file's text changes ({@link applyFunctionFiles}).
 */
export const FUNCTIONS_FOLDER = fileURLToPath(new URL('./functions', import.meta.url));

/**
 * The table that records, per function file, the SHA-256 (hex) of the text last applied; beside
 * drizzle's own `drizzle.__drizzle_migrations`, and like it created by the migrator when missing.
 */
export const FUNCTIONS_TABLE = 'drizzle.sonde_functions';

/**
 * The first words of the one line that refuses a database made by the migrations before the 0.1.0
 * baseline (the whole line: {@link refuseOldHistory}).
 */
export const OLD_HISTORY_MESSAGE = 'holds a database made by the migrations before the 0.1.0 baseline';

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

/** `fn` run on the first call only; later calls get the first call's promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/** One row of a query, as both drivers give it. */
type Row = Record<string, unknown>;

/** What the migrator needs of a connection, on either engine. */
interface MigrationSession {
  /** one statement, with `$1…` parameters */
  query(text: string, params?: unknown[]): Promise<Row[]>;
  /** `fn` in one transaction: committed when it resolves, rolled back when it throws */
  transaction(fn: (tx: { exec(script: string): Promise<void>; query(text: string, params?: unknown[]): Promise<Row[]> }) => Promise<void>): Promise<void>;
}

/** A PostgreSQL URL as an error names it: host, port and database, never the user or password. */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `PostgreSQL database ${decodeURIComponent(parsed.pathname.slice(1)) || '(default)'} at ${parsed.host}`;
}

/**
 * Refuses a database whose migration history is not this one's: one made by the migrations before the
 * 0.1.0 baseline holds a row in drizzle's `drizzle.__drizzle_migrations` whose `created_at` is none of
 * the journal's `when` values (server/db/migrations/meta/_journal.json). Nothing is written: such a
 * database is not upgraded in place (the baseline would fail on its tables, and its data would be
 * silently reshaped). A database with no history yet (new) passes.
 * @param where - the database as the message names it (PGlite's directory, or host and database name)
 * @throws Error, one line: "<where> holds a database made by the migrations before the 0.1.0 baseline;
 *   it is not upgraded in place: …" with what to do
 */
async function refuseOldHistory(session: MigrationSession, where: string): Promise<void> {
  const [table] = await session.query(`select to_regclass('drizzle.__drizzle_migrations') is not null as "present"`);
  if (!table?.present) return;
  const known = new Set(readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis));
  const applied = await session.query('select created_at from drizzle.__drizzle_migrations');
  if (applied.every((row) => known.has(Number(row.created_at)))) return;
  throw new Error(
    `${where} ${OLD_HISTORY_MESSAGE}; it is not upgraded in place: export what you need with the previous version ` +
      '(npm run requests -- export), then move the directory away (PGlite) or use a new database (PostgreSQL) and start again',
  );
}

/**
 * Applies each `.sql` file of `folder` whose text is new or changed, in name order: Flyway's
 * repeatable migrations (Flyway documentation, "Migrations": they have a checksum but no version, are
 * (re-)applied every time their checksum changes, after all pending versioned migrations, in the order
 * of their description). Like graphile-worker, which installs its own SQL functions at start, the
 * migrator creates its bookkeeping table when it is missing (graphile-worker changes a function by a
 * numbered migration that drops and recreates it; here the function's one file changes). A file's
 * SHA-256 (node:crypto) is compared with the one recorded in {@link FUNCTIONS_TABLE}; where they differ,
 * the file runs and its new hash is recorded, in one transaction, so a file that fails leaves the
 * function and the record as they were. A file must therefore replace what it defines (`create or replace
 * function`, or a `drop function` of the old signature before `create function`). On PostgreSQL the
 * caller holds the migrations' advisory lock, so that instances starting at once apply a file once.
 * @param folder - a folder of `<name>.sql` files ({@link FUNCTIONS_FOLDER})
 * @returns the names of the files applied, in order
 * @throws the driver's error when a file's SQL fails (nothing of that file is kept)
 */
async function applyFunctionFiles(session: MigrationSession, folder: string): Promise<string[]> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.sql')).sort();
  await session.query(
    `create table if not exists ${FUNCTIONS_TABLE} (file text primary key, sha256 text not null, applied_at timestamptz not null default now())`,
  );
  const recorded = new Map((await session.query(`select file, sha256 from ${FUNCTIONS_TABLE}`)).map((row) => [row.file, row.sha256]));
  const applied: string[] = [];
  for (const name of names) {
    const text = await readFile(join(folder, name), 'utf8');
    const sha256 = createHash('sha256').update(text).digest('hex');
    if (recorded.get(name) === sha256) continue;
    await session.transaction(async (tx) => {
      await tx.exec(text);
      await tx.query(
        `insert into ${FUNCTIONS_TABLE} (file, sha256) values ($1, $2)
         on conflict (file) do update set sha256 = excluded.sha256, applied_at = now()`,
        [name, sha256],
      );
    });
    applied.push(name);
  }
  return applied;
}

// Any number taken by this app only: serialises migrations when several instances start at once.
const MIGRATION_LOCK_ID = 7_341_902;

/**
 * Opens the database, refuses one made by the migrations before the 0.1.0 baseline (before writing
 * anything), applies every pending migration ({@link MIGRATIONS_FOLDER}), then every new or changed
 * function file ({@link FUNCTIONS_FOLDER}, or `functionsFolder`).
 * With `{ url }` it connects to PostgreSQL with postgres.js (pool of `maxConnections`, default
 * {@link POSTGRES_POOL_SIZE}); several server instances may start at once: a PostgreSQL advisory lock
 * runs the migrations and the function files one instance at a time.
 * With `{ pgliteDir }` it opens PGlite there (created on demand; `memory://` keeps nothing), holding
 * the directory's lock ({@link PGLITE_LOCK_FILE}) until `close()`, the directory's mode set to
 * {@link PGLITE_DIR_MODE}. The team's command line reaches a running server's PGlite through the server
 * (server/cli/teamChannel.ts), never by opening the directory a second time.
 * @param options - `lockWaitMs`: how long to wait for a dead process's lock to go stale (default
 *   {@link PGLITE_LOCK_STALE_MS} + 2 s, so that a restart after kill -9 succeeds); `pgliteTemplate`: a
 *   PGlite `dumpDataDir()` tarball that a new PGlite database starts from (the tests start each database
 *   from one migrated copy); PGlite refuses it with "Database already exists" where the directory holds one;
 *   `functionsFolder`: where the function files are (default {@link FUNCTIONS_FOLDER}; tests point it at a copy)
 * @throws the driver's error when the database cannot be reached or a migration or function file fails;
 *   Error "… is in use by another process" when another live process holds the PGlite directory; Error
 *   "<where> holds a database made by the migrations before the 0.1.0 baseline; …" (one line, saying what
 *   to do) when the database's history is the old one.
 */
export async function openDatabase(
  location: DatabaseLocation,
  options: { maxConnections?: number; lockWaitMs?: number; pgliteTemplate?: Blob; functionsFolder?: string } = {},
): Promise<Database> {
  const functionsFolder = options.functionsFolder ?? FUNCTIONS_FOLDER;
  if ('url' in location) {
    const lockClient = postgres(location.url, { max: 1, onnotice: () => {} });
    try {
      await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
      const session: MigrationSession = {
        query: async (text, params = []) => [...(await lockClient.unsafe(text, params as postgres.ParameterOrJSON<never>[]))],
        transaction: async (fn) => {
          await lockClient.begin(async (tx) => {
            await fn({
              exec: async (script) => {
                await tx.unsafe(script);
              },
              query: async (text, params = []) => [...(await tx.unsafe(text, params as postgres.ParameterOrJSON<never>[]))],
            });
          });
        },
      };
      await refuseOldHistory(session, describeUrl(location.url));
      await migratePostgres(drizzlePostgres(lockClient), { migrationsFolder: MIGRATIONS_FOLDER });
      await applyFunctionFiles(session, functionsFolder);
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
    const pglite = client;
    const db = drizzlePglite(pglite, { schema });
    const session: MigrationSession = {
      query: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
      transaction: async (fn) => {
        await pglite.transaction(async (tx) => {
          await fn({
            exec: async (script) => {
              await tx.exec(script);
            },
            query: async (text, params) => (await tx.query<Record<string, unknown>>(text, params)).rows,
          });
        });
      },
    };
    await refuseOldHistory(session, dir);
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await applyFunctionFiles(session, functionsFolder);
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
