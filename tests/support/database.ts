import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../server/db/database.ts';

/** A database engine the server runs on, and how to open a fresh, empty one of it for a test. */
export interface TestEngine {
  name: 'PGlite' | 'PostgreSQL';
  /** A new empty database with the migrations applied; `close()` also drops it (PostgreSQL). */
  open(): Promise<Database>;
  /** The connection settings of the last database opened (for a child server process). */
  location(): { url: string } | { pgliteDir: string };
}

/**
 * The engines every storage test runs on: PGlite always (in memory), and a real PostgreSQL when
 * `DATABASE_URL` points at one (`.ci/run` starts a throwaway server). Each `open()` on PostgreSQL
 * creates a database of its own, so that test files can run in parallel, and drops it on close.
 */
export function testEngines(): TestEngine[] {
  const engines: TestEngine[] = [
    { name: 'PGlite', open: () => openDatabase({ pgliteDir: 'memory://' }), location: () => ({ pgliteDir: 'memory://' }) },
  ];
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    let lastUrl = adminUrl;
    engines.push({
      name: 'PostgreSQL',
      location: () => ({ url: lastUrl }),
      open: async () => {
        const name = `sonde_test_${randomUUID().replace(/-/g, '')}`;
        const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
        await admin.unsafe(`create database ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        lastUrl = url.toString();
        const database = await openDatabase({ url: lastUrl });
        let dropped: Promise<void> | undefined;
        return {
          ...database,
          close: () =>
            (dropped ??= (async () => {
              await database.close();
              await admin.unsafe(`drop database if exists ${name} with (force)`);
              await admin.end();
            })()),
        };
      },
    });
  }
  return engines;
}
