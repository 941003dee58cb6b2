import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import type { SubmissionBody } from '#shared/submission';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { acceptSubmission, type AcceptSettings } from '../../server/db/submissions.ts';
import { pooledPglite } from './pglitePool.ts';

/** A database engine the server runs on, and how to open a fresh, empty one of it for a test. */
export interface TestEngine {
  name: 'PGlite' | 'PostgreSQL';
  /** A new empty database with the migrations applied; `close()` also drops it (PostgreSQL). */
  open(): Promise<Database>;
  /** The connection settings of the last database opened (for a child server process). */
  location(): { url: string } | { pgliteDir: string };
}

/**
 * A tarball held in memory, as a Blob. PGlite reads a `loadDataDir` Blob with `arrayBuffer()` only, which
 * for a Node Blob streams the 40 MB through chunks (about 50 ms of CPU per test database); this one hands
 * over a copy of its bytes.
 */
class TarballBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;

  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([bytes]);
    this.#bytes = bytes;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A new in-memory PGlite database with every migration applied: a copy of the one that the global setup
 * (tests/support/globalSetup.ts) migrated, read once per worker (the migrator still runs on the copy
 * and finds nothing to apply), or one that an earlier test closed, emptied to the same state
 * (tests/support/pglitePool.ts).
 */
export function openPglite(): Promise<Database> {
  return pooledPglite(async () => openDatabase({ pgliteDir: 'memory://' }, { pgliteTemplate: await migratedPgliteTarball() }));
}

/**
 * The global setup's migrated database as a PGlite `dumpDataDir()` tarball (tests/support/globalSetup.ts),
 * read once per worker: `openDatabase`'s `pgliteTemplate`, for a test that opens a directory of its own.
 */
export function migratedPgliteTarball(): Promise<Blob> {
  pgliteTemplate ??= readFile(inject('pgliteTemplate')).then((bytes) => new TarballBlob(new Uint8Array(bytes)));
  return pgliteTemplate;
}

/**
 * A new PGlite directory holding a database with every migration applied, for a server or command line
 * in a child process: a copy of the global setup's closed directory (tests/support/globalSetup.ts).
 * @returns the directory's path (a new one under the system's temporary directory)
 */
export async function migratedPgliteDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sonde-pglite-'));
  await cp(inject('pgliteTemplateDir'), dir, { recursive: true });
  return dir;
}

/**
 * The engines every storage test runs on: PGlite always (in memory), and a real PostgreSQL when
 * `DATABASE_URL` points at one (`.ci/run` starts a throwaway server). Each `open()` on PostgreSQL
 * creates a database of its own (a copy of the global setup's migrated template), so that test files can run in parallel, and drops it on close.
 */
export function testEngines(): TestEngine[] {
  const engines: TestEngine[] = [
    { name: 'PGlite', open: openPglite, location: () => ({ pgliteDir: 'memory://' }) },
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
        const template = inject('postgresTemplate');
        await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`);
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

/**
 * A fresh database of `engine` for the tests of the calling `describe`: one for each test (`scope`
 * `'each'`, the default) or one for all of them (`'all'`), opened before and closed (on PostgreSQL,
 * dropped) after. `opened` receives each database as it is opened, before the tests that use it.
 */
export function withTestDatabase(engine: TestEngine, opened: (database: Database) => void, scope: 'each' | 'all' = 'each'): void {
  const [before, after] = scope === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  let database: Database;
  before(async () => {
    database = await engine.open();
    opened(database);
  });
  after(async () => {
    await database.close();
  });
}

/**
 * Stores a submission as `POST /api/submissions` would, from a client address of its own (so the rate
 * limit never counts), with the deliveries `settings` asks for.
 * @returns the stored submission's id
 * @throws Error naming the outcome when it was not stored (replayed, limited…)
 */
export async function storeSubmission(
  db: Database['db'],
  body: SubmissionBody,
  settings: Pick<AcceptSettings, 'announce' | 'mail'> = {},
): Promise<string> {
  const outcome = await acceptSubmission(db, {
    body,
    idempotencyKey: null,
    clientIp: `198.51.100.${Math.floor(Math.random() * 250)}`,
    limitPerWindow: 1000,
    windowMs: 60_000,
    ...settings,
  });
  if (outcome.status !== 'stored') throw new Error(outcome.status);
  return outcome.id;
}
