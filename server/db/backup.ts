// A copy of the embedded database (PGlite) and its way back: `npm run requests -- backup FILE` and
// `restore FILE` (server/cli/backup.ts). The copy is PGlite's own format, its data directory as a gzip
// tarball (`dumpDataDir`), which `new PGlite({ loadDataDir })` opens again; on PostgreSQL the operator's
// own tools (pg_dump, pg_restore) do this. The §7101 records it holds are kept for 24 months (11 CCR §7101):
// a copy is how they survive a lost disk.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { MIGRATIONS_FOLDER, openDatabase, type Db } from './database.ts';
import { isPgliteDirInUse } from './pgliteDir.ts';

/**
 * A consistent copy of the PGlite database behind `db`, opened by this process (the running server's,
 * or one the command line opened under the directory's lock): taken under PGlite's transaction mutex,
 * so no other statement or transaction of the process runs during it, after a `checkpoint`, so that the
 * data files hold every committed row and the copy opens without replaying the write-ahead log.
 * @param db - a Drizzle handle over PGlite (`Database.engine` is `pglite`)
 * @returns the data directory as a gzip tarball (`application/x-gzip`)
 */
export async function dumpPglite(db: Db): Promise<Blob> {
  const client = (db as unknown as { $client: PGlite }).$client;
  return client.transaction(async (tx) => {
    await tx.exec('checkpoint');
    return client.dumpDataDir('gzip');
  });
}

/** What {@link restorePglite} did. */
export interface Restored {
  /** the migrations the copy had (drizzle's journal entries), and those applied since, to bring it to this code's */
  copyMigrations: number;
  appliedMigrations: number;
}

/** A tar archive's magic, `ustar`, at byte 257 of its first header (POSIX.1-1988). */
function isTar(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(257, 262)).toString('latin1') === 'ustar';
}

/**
 * Whether `copy` is a tar archive, gzipped or not: checked before PGlite reads it, since PGlite given
 * anything else fails to start and leaves its WebAssembly instance behind.
 */
function isTarball(copy: Uint8Array): boolean {
  if (copy[0] === 0x1f && copy[1] === 0x8b) {
    try {
      return isTar(gunzipSync(copy, { finishFlush: 2 /* Z_SYNC_FLUSH: the first blocks are enough */ }).subarray(0, 512));
    } catch {
      return false;
    }
  }
  return isTar(copy);
}

/**
 * Restores a copy made by {@link dumpPglite} into PGlite's directory `dir` (the server's
 * `SONDE_PGLITE_DIR`), then brings it to this code's schema: the migrations it lacks (a copy from an
 * older version) and the changed function files are applied now, as the server would at its next start,
 * so that a failure shows here and not then. Refused, with nothing written:
 * - `dir` in use by a live process (a running server: its lock, server/db/database.ts);
 * - `dir` holding anything at all (a database, or files of another kind): a restore never mixes or replaces;
 * - a file that is not a PGlite copy;
 * - a copy holding a migration this code does not know (made by a newer version, or by the migrations
 *   before the 0.1.0 baseline): it is not opened with code that would misread it.
 * @param copy - the file's bytes
 * @returns the copy's migrations and those applied
 * @throws Error, one line naming the refusal and what to do; the driver's error when a migration fails
 *   (then `dir` is left as it was found: absent or empty)
 */
export async function restorePglite(copy: Uint8Array, dir: string): Promise<Restored> {
  if (await isPgliteDirInUse(dir)) throw new Error(`${dir} is in use by a running server (or another command): stop it first, then restore`);
  const existing = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing && existing.length > 0) {
    throw new Error(`${dir} already holds data (${existing.length} entries): restore into a new or empty directory (SONDE_PGLITE_DIR), or move this one away first`);
  }
  if (!isTarball(copy)) throw new Error('the file is not a copy made by backup (a PGlite data directory as a tarball)');
  const blob = new Blob([Uint8Array.from(copy)]);
  const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const copied = await PGlite.create({ loadDataDir: blob });
  let applied: number[];
  try {
    const table = await copied.query<{ present: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as "present"`);
    applied = table.rows[0]?.present
      ? (await copied.query<{ created_at: string }>('select created_at from drizzle.__drizzle_migrations')).rows.map((row) => Number(row.created_at))
      : [];
  } finally {
    await copied.close();
  }
  const knownTimes = new Set(known.map((migration) => migration.folderMillis));
  const unknown = applied.filter((time) => !knownTimes.has(time));
  if (unknown.length > 0) {
    throw new Error(
      `the copy holds ${unknown.length} migration(s) this version does not know (it was made by a newer version, or before the 0.1.0 baseline): restore it with the version that made it`,
    );
  }
  try {
    const database = await openDatabase({ pgliteDir: dir }, { pgliteTemplate: blob, lockWaitMs: 0 });
    await database.close();
  } catch (error) {
    // nothing half-restored is left behind: the directory as it was found (absent, or empty)
    await rm(dir, { recursive: true, force: true });
    if (existing) await mkdir(dir, { recursive: true });
    throw error;
  }
  return { copyMigrations: applied.length, appliedMigrations: known.length - applied.length };
}
