import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { dumpPglite, restorePglite } from '../db/backup.ts';
import { ExitError } from './arguments.ts';
import type { CommandContext } from './context.ts';
import { TEAM_SOCKET_FILE } from './teamChannel.ts';

/**
 * The mode of a backup file: read and write for its owner only (`rw-------`), since it holds every
 * stored request, the §7101 records and the team's members: personal data.
 */
export const BACKUP_FILE_MODE = 0o600;

/** What to do on PostgreSQL, where the database server's own tools copy and restore the data. */
const POSTGRES_GUIDANCE =
  'the data is in PostgreSQL (DATABASE_URL): back it up with pg_dump of the server\'s major version or newer, ' +
  '`(umask 077; pg_dump --format=custom --file FILE "$DATABASE_URL")`, and restore with pg_restore into a new database ' +
  '(`pg_restore --dbname "$DATABASE_URL" FILE`), or use your host\'s snapshots; nothing was written';

/**
 * Writes `data` to `file`, readable by its owner only from its first byte: written to a new file beside
 * it (created with {@link BACKUP_FILE_MODE}, exclusively, so it never exists with a wider mode), flushed
 * to disk, then linked to `file`, which must not exist (a copy is never overwritten by a later one).
 * @throws ExitError (code 1) when `file` exists; the file system's error otherwise (nothing left behind)
 */
async function writePrivateFile(file: string, data: Uint8Array): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  const handle = await open(partial, 'wx', BACKUP_FILE_MODE);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(partial, file).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? new ExitError(`${file} already exists: give the copy a new name (nothing was written)`, 1) : error;
    });
  } finally {
    await unlink(partial);
  }
}

/**
 * Runs `work` with the running server's team channel socket moved out of PGlite's directory `dir`, and
 * back after: PGlite's copy reads every file of the directory and fails on a socket (EINVAL). Meanwhile a
 * command typed elsewhere finds no channel and is told the directory is in use; it is run again after.
 */
async function withoutTeamSocket<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const socket = join(dir, TEAM_SOCKET_FILE);
  const aside = join(dirname(dir), `.${TEAM_SOCKET_FILE}.${process.pid}`);
  const moved = await rename(socket, aside).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  try {
    return await work();
  } finally {
    if (moved) await rename(aside, socket);
  }
}

/**
 * `backup <file>` and `restore <file>`: a copy of the embedded database (PGlite) and its way back
 * (server/db/backup.ts). `backup` runs where the database is open: in the running server when one holds
 * the directory (sent over its team channel, so the file is written by the server's user, at the path
 * resolved where the command was typed), else here, under the directory's lock. `restore` writes into the
 * configured directory only when no process holds it and it holds nothing. On PostgreSQL both say what
 * to run instead and exit with 1.
 */
export function addBackupCommands(program: Command, { io, withConnection }: CommandContext): void {
  program
    .command('backup')
    .description('writes a consistent copy of the embedded database (PGlite) to <file> (mode 0600: it holds personal data), while the server runs')
    .argument('<file>', 'a new file (an existing one is never overwritten), e.g. sonde-2026-11-28.tar.gz')
    .action(async (file: string) => {
      if (io.database && 'url' in io.database) throw new ExitError(POSTGRES_GUIDANCE, 1);
      const size = await withConnection(async (connection) => {
        if (connection.via === 'postgres') throw new ExitError(POSTGRES_GUIDANCE, 1);
        const dump = () => dumpPglite(connection.db);
        const dir = io.database && 'pgliteDir' in io.database ? io.database.pgliteDir : undefined;
        const copy = new Uint8Array(await (await (connection.via === 'server' && dir ? withoutTeamSocket(dir, dump) : dump())).arrayBuffer());
        await writePrivateFile(file, copy);
        return copy.byteLength;
      });
      io.out(`wrote a copy of the database to ${file} (${size} bytes, mode 0600); restore it with: npm run requests -- restore ${file}`);
    });

  program
    .command('restore')
    .description('restores a copy made by backup into the server\'s empty PGlite directory (SONDE_PGLITE_DIR), with no server running')
    .argument('<file>', 'a copy made by backup')
    .action(async (file: string) => {
      const location = io.database;
      if (!location) throw new ExitError('the data\'s location is not known here', 1);
      if ('url' in location) throw new ExitError(POSTGRES_GUIDANCE, 1);
      const copy = await readFile(file);
      const restored = await restorePglite(copy, location.pgliteDir);
      io.out(
        `restored ${file} into ${location.pgliteDir}: ${restored.copyMigrations} migration(s) in the copy` +
          (restored.appliedMigrations > 0 ? `, ${restored.appliedMigrations} applied now to bring it to this version` : ', as this version has') +
          '; start the server on it',
      );
    });
}
