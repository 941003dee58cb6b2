import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { PGLITE_LOCK_STALE_MS } from '../limits.ts';

// PGlite's data directory belongs to one process at a time (server/db/database.ts opens it under this
// lock): a lock file beside the data, kept fresh by its holder, and taken over once a dead holder's goes stale.

/**
 * The mode of PGlite's data directory: the stored requests are personal data, so only the server's
 * operating-system user may read, write or enter it (`rwx------`). Set on creation and on every open,
 * so an older directory (0755, as `mkdir` made it under the usual umask) is tightened at start.
 */
export const PGLITE_DIR_MODE = 0o700;

/** The lock file beside PGlite's data that the process holding the directory keeps fresh. */
const PGLITE_LOCK_FILE = '.sonde.lock';

/**
 * Takes the directory's lock, waiting up to `waitMs` for a dead holder's lock to go stale.
 * @returns a function that releases it
 * @throws Error "… is in use by another process" when a live process holds it
 */
export async function lockPgliteDir(dir: string, waitMs: number): Promise<() => Promise<void>> {
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

/**
 * Whether a live process holds PGlite's directory `dir` (its lock is there and fresh): a running server,
 * or a command line that opened it. A directory that does not exist, or whose holder died (its lock gone
 * stale), is not in use.
 */
export async function isPgliteDirInUse(dir: string): Promise<boolean> {
  try {
    return await lockfile.check(dir, { lockfilePath: join(dir, PGLITE_LOCK_FILE), stale: PGLITE_LOCK_STALE_MS, realpath: false });
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return false;
    throw error;
  }
}
