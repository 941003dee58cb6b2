// @vitest-environment node
// Backup and restore of the embedded database (server/db/backup.ts, server/cli/backup.ts), as the team
// runs them: `npm run requests -- backup FILE` beside a running server process on PGlite, and `restore
// FILE` into the directory a new server then starts on. And every refusal of restore.
import { mkdir, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import { BACKUP_FILE_MODE } from '../../server/cli/backup.ts';
import { openDatabase } from '../../server/db/database.ts';
import { cliProcess } from '../support/cli.ts';
import { migratedPgliteDir, migratedPgliteTarball } from '../support/database.ts';
import { spawnServer, type ServerProcess } from '../support/process.ts';
import { writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';

/** Every row of the stored requests, the §7101 records and the team's members, in a stable order, from a closed PGlite directory. */
async function rowsIn(dir: string): Promise<{ submissions: unknown[]; privacyRecords: unknown[]; teamMembers: unknown[] }> {
  const database = await openDatabase({ pgliteDir: dir }, { lockWaitMs: 0 });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  try {
    const rows = async (table: string) => (await client.query(`select * from ${table} order by 1`)).rows; // the first column: the key
    return {
      submissions: await rows('submissions'),
      privacyRecords: await rows('privacy_records'),
      teamMembers: await rows('team_members'),
    };
  } finally {
    await database.close();
  }
}

const privacyOf = (email: string): SubmissionBody => {
  const body = privacyRequestBody();
  return { ...body, data: { ...body.data, workEmail: email } };
};

describe('backup and restore on PGlite', () => {
  let distDir: string;
  let work: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    distDir = await writeStandInSite();
    work = await mkdtemp(join(tmpdir(), 'sonde-backup-'));
  });
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });
  const stop = async (running: ServerProcess) => {
    running.child.kill('SIGTERM');
    await running.exited;
  };

  it('copies a running server\'s data (mode 0600) and restores it into a new directory, where a new server finds every request, §7101 record and team member', async () => {
    const original = await migratedPgliteDir();
    const env = { DATABASE_URL: '', SONDE_PGLITE_DIR: original };
    server = await spawnServer({ SONDE_DIST_DIR: distDir, ...env });
    const store = async (body: SubmissionBody) => {
      const response = await fetch(`${server!.url}${SUBMISSIONS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    await store(submissionBody({ workEmail: 'ada@example.com' }));
    const privacy = await store(privacyOf('grace@example.com'));
    await store(privacyOf('alan@example.com'));
    expect((await cliProcess(['verify', privacy], env)).code).toBe(0); // the §7101 record holds its verification
    expect((await cliProcess(['team', 'add', 'kim@example.com', '--name', 'Kim'], env)).code).toBe(0);
    const exported = await cliProcess(['export', '--format', 'json'], env);
    const members = await cliProcess(['team', 'list'], env);

    // through the running server, from another working directory: the file lands where the command was typed
    const backup = await cliProcess(['backup', 'copy.tar.gz'], env, { cwd: work });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const file = join(work, 'copy.tar.gz');
    expect(backup.stdout).toContain(`wrote a copy of the database to ${file}`);
    expect((await stat(file)).mode & 0o777).toBe(BACKUP_FILE_MODE);
    // an existing file is never overwritten
    const again = await cliProcess(['backup', file], env);
    expect([again.code, again.stderr]).toEqual([1, `${file} already exists: give the copy a new name (nothing was written)\n`]);
    // nor is the directory of the running server restored into
    const inUse = await cliProcess(['restore', file], env);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toContain(`${original} is in use by a running server`);

    const restoredDir = join(work, 'restored');
    const restoredEnv = { DATABASE_URL: '', SONDE_PGLITE_DIR: restoredDir };
    const restore = await cliProcess(['restore', file], restoredEnv);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^restored .* into .*restored: \d+ migration\(s\) in the copy, as this version has; start the server on it\n$/);

    const restored = await spawnServer({ SONDE_DIST_DIR: distDir, ...restoredEnv });
    try {
      expect((await fetch(`${restored.url}/api/health`)).status).toBe(200);
      expect(await cliProcess(['export', '--format', 'json'], restoredEnv)).toEqual(exported);
      expect(await cliProcess(['team', 'list'], restoredEnv)).toEqual(members);
    } finally {
      await stop(restored);
    }
    await stop(server);
    server = undefined;
    const [before, after] = [await rowsIn(original), await rowsIn(restoredDir)];
    expect(before.submissions).toHaveLength(3);
    expect(before.privacyRecords).toHaveLength(2);
    expect(before.privacyRecords.filter((record) => (record as { verified_by: string | null }).verified_by === 'team')).toHaveLength(1);
    expect(before.teamMembers).toHaveLength(1);
    expect(after).toEqual(before);
  }, 180_000);

  it('backs up the directory itself when no server runs', async () => {
    const dir = await migratedPgliteDir();
    const file = join(work, 'offline.tar.gz');
    const backup = await cliProcess(['backup', file], { DATABASE_URL: '', SONDE_PGLITE_DIR: dir });
    expect([backup.code, backup.stderr]).toEqual([0, '']);
    expect((await stat(file)).mode & 0o777).toBe(BACKUP_FILE_MODE);
    expect(await readdir(dir)).not.toContain('.sonde.lock'); // the directory's lock was released
  }, 60_000);

  it('refuses to restore into a directory that holds anything, a file that is no copy, or a copy with a migration this code does not know, writing nothing', async () => {
    const copyFile = join(work, 'template.tar.gz');
    const template = await migratedPgliteTarball();
    await writeFile(copyFile, Buffer.from(await template.arrayBuffer()));

    const occupied = join(work, 'occupied');
    await mkdir(occupied);
    await writeFile(join(occupied, 'notes.txt'), 'not a database');
    const nonEmpty = await cliProcess(['restore', copyFile], { DATABASE_URL: '', SONDE_PGLITE_DIR: occupied });
    expect(nonEmpty.code).toBe(1);
    expect(nonEmpty.stderr).toBe(`${occupied} already holds data (1 entries): restore into a new or empty directory (SONDE_PGLITE_DIR), or move this one away first\n`);
    expect(await readdir(occupied)).toEqual(['notes.txt']);

    const junk = join(work, 'junk.tar.gz');
    await writeFile(junk, 'not a tarball');
    const notACopy = await cliProcess(['restore', junk], { DATABASE_URL: '', SONDE_PGLITE_DIR: join(work, 'from-junk') });
    expect([notACopy.code, notACopy.stderr]).toEqual([1, 'the file is not a copy made by backup (a PGlite data directory as a tarball)\n']);
    await expect(readdir(join(work, 'from-junk'))).rejects.toThrow(/ENOENT/);

    // a copy from a newer version: one migration more than this code's journal
    const newer = await PGlite.create({ loadDataDir: template });
    await newer.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', 4102444800000)`);
    const newerFile = join(work, 'newer.tar.gz');
    await writeFile(newerFile, Buffer.from(await (await newer.dumpDataDir('gzip')).arrayBuffer()));
    await newer.close();
    const empty = join(work, 'empty');
    await mkdir(empty);
    const fromNewer = await cliProcess(['restore', newerFile], { DATABASE_URL: '', SONDE_PGLITE_DIR: empty });
    expect(fromNewer.code).toBe(1);
    expect(fromNewer.stderr).toBe(
      'the copy holds 1 migration(s) this version does not know (it was made by a newer version, or before the 0.1.0 baseline): restore it with the version that made it\n',
    );
    expect(await readdir(empty)).toEqual([]);

    // the same directory takes the copy this version made
    const restore = await cliProcess(['restore', copyFile], { DATABASE_URL: '', SONDE_PGLITE_DIR: empty });
    expect([restore.code, restore.stderr]).toEqual([0, '']);
  }, 120_000);

  it('on PostgreSQL, says what to run instead and exits with 1, writing nothing', async () => {
    const file = join(work, 'postgres.tar.gz');
    for (const command of ['backup', 'restore']) {
      // never reached: the command refuses before connecting
      const run = await cliProcess([command, file], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
      expect(run.code, command).toBe(1);
      expect(run.stderr, command).toContain('pg_dump');
    }
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });
});
