import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfig } from '../config.ts';
import { openDatabase, type Db } from '../db/database.ts';

/** A connection for the command line, and how it reached the data. */
export interface TeamConnection {
  db: Db;
  /** `postgres` (DATABASE_URL), `directory` (PGlite opened here) or `server` (the server's own PGlite, running a command it was sent) */
  via: 'postgres' | 'server' | 'directory';
  close(): Promise<void>;
}

/**
 * Connects as the server's configuration says. With PGlite, the directory is opened here, under its
 * lock, which fails while a live server holds it (then the command goes to the server instead:
 * `runTeamCommandLine` in server/cli/main.ts). A directory that holds no PGlite database is refused, never created.
 * @throws Error naming the problem (and the directory) when the database cannot be reached, or
 *   "… is in use by another process" while a server or another command holds the PGlite directory
 */
export async function connectForTeam(config: ServerConfig): Promise<TeamConnection> {
  if ('url' in config.database) {
    const database = await openDatabase(config.database, { maxConnections: 1 });
    return { db: database.db, via: 'postgres', close: database.close };
  }
  const dir = config.database.pgliteDir;
  // A mistyped SONDE_PGLITE_DIR would otherwise become a new, empty database reporting "no requests".
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    throw new Error(`no database in ${dir} (SONDE_PGLITE_DIR): check the path, or start the server once to create it`);
  }
  const database = await openDatabase({ pgliteDir: dir }, { lockWaitMs: 0 });
  return { db: database.db, via: 'directory', close: database.close };
}
