// Vitest's global setup: one migrated database that every test database starts from, so that a test
// opens a copy (about 0.3 s) instead of running every migration again (about 1.6 s on PGlite), and a
// server in a child process starts on a copied directory (about 2 s of CPU less than on an empty one).
// The empty cluster it starts from (PostgreSQL's initdb, about 3 s of CPU on PGlite) is kept too, for the
// migrator's own tests. And the server's and the command line's entries bundled once, for the tests that
// start them as processes.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/database.ts';
import { bundleServer } from '../../scripts/serverBundle.mjs';
import { PGLITE_NODE_FLAGS } from './nodeFlags.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a PGlite `dumpDataDir()` tarball of a database with every migration applied */
    pgliteTemplate: string;
    /** the same database as a closed PGlite directory, for a server or command line in a child process */
    pgliteTemplateDir: string;
    /**
     * a closed PGlite directory holding a new cluster, empty (initdb done, no migration): the migrator's
     * own tests start from a copy of it instead of an initdb each (about 3 s of CPU)
     */
    pgliteEmptyDir: string;
    /** with `DATABASE_URL`: the name of a migrated PostgreSQL database to create test databases from */
    postgresTemplate: string | null;
    /** server/main.ts and server/cli/main.ts bundled as `npm run build` bundles them (scripts/serverBundle.mjs), to run with `node` */
    entries: { server: string; cli: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Vitest's own process opens PGlite here twice: compiled as in the workers (tests/support/nodeFlags.ts)
  for (const flag of PGLITE_NODE_FLAGS) setFlagsFromString(flag);
  const dir = await mkdtemp(join(tmpdir(), 'sonde-template-'));
  // inside the project, so that the bundles resolve packages from node_modules
  const entriesDir = resolve('node_modules/.cache/sonde-test-entries', randomUUID());
  project.provide('entries', await bundleServer(entriesDir));
  // PostgreSQL's initdb once: the empty cluster, kept as a directory, is where the migrated one starts too
  const initialised = await PGlite.create('memory://');
  const empty = await initialised.dumpDataDir('none');
  await initialised.close();
  const emptyDir = join(dir, 'pglite-empty');
  await (await PGlite.create(emptyDir, { loadDataDir: empty })).close();
  project.provide('pgliteEmptyDir', emptyDir);
  const migrated = await openDatabase({ pgliteDir: 'memory://' }, { pgliteTemplate: empty });
  const client = (migrated.db as unknown as { $client: PGlite }).$client;
  const tarball = join(dir, 'pglite.tar');
  const dump = await client.dumpDataDir('none');
  await writeFile(tarball, Buffer.from(await dump.arrayBuffer()));
  await migrated.close();
  project.provide('pgliteTemplate', tarball);
  const templateDir = join(dir, 'pglite');
  await (await openDatabase({ pgliteDir: templateDir }, { pgliteTemplate: dump })).close();
  project.provide('pgliteTemplateDir', templateDir);

  const adminUrl = process.env.DATABASE_URL;
  let postgresTemplate: string | null = null;
  if (adminUrl) {
    postgresTemplate = `sonde_template_${randomUUID().replace(/-/g, '')}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${postgresTemplate}`);
    const url = new URL(adminUrl);
    url.pathname = `/${postgresTemplate}`;
    await (await openDatabase({ url: url.toString() }, { maxConnections: 1 })).close();
    await admin.end();
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(entriesDir, { recursive: true, force: true });
    if (adminUrl && postgresTemplate) {
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${postgresTemplate} with (force)`);
      await admin.end();
    }
  };
}
