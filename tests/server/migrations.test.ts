// @vitest-environment node
// The migrator (server/db/database.ts): the history starts at the 0.1.0 baseline; each SQL function is
// one file of server/db/functions/, applied again when its text changes (Flyway's repeatable migrations);
// a database made by the migrations before the baseline is refused, untouched, with one line.
import { createHash, randomUUID } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  FUNCTIONS_FOLDER,
  FUNCTIONS_TABLE,
  MIGRATIONS_FOLDER,
  OLD_HISTORY_MESSAGE,
  openDatabase,
  rowsOf,
  type Database,
  type DatabaseLocation,
} from '../../server/db/database.ts';
import { connectForTeam } from '../../server/cli/connect.ts';
import { runRequests } from '../../server/cli/requests.ts';
import type { ServerConfig } from '../../server/config.ts';
import { testEngines } from '../support/database.ts';

type Row = Record<string, unknown>;

/**
 * A fresh, empty database of one engine, no migration applied (these tests watch the migrator itself): on
 * PGlite a copy of the global setup's new cluster (tests/support/globalSetup.ts), as initdb would make it.
 */
interface FreshDatabase {
  location: DatabaseLocation;
  /** the database's name in the refusal line */
  where: string;
  /** a plain connection, outside the migrator, to look at what it wrote */
  query(text: string): Promise<Row[]>;
  /** migrates it with a drizzle migrations folder of its own (the old history) */
  migrateWith(folder: string): Promise<void>;
  /** closes the plain connection (PGlite: so the migrator may open the directory) */
  release(): Promise<void>;
  drop(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function freshPglite(): Promise<FreshDatabase> {
  const dir = join(await tempDir('sonde-migrations-'), 'pglite');
  await cp(inject('pgliteEmptyDir'), dir, { recursive: true });
  let client: PGlite | undefined;
  const connect = async () => (client ??= await PGlite.create(dir));
  const fresh: FreshDatabase = {
    location: { pgliteDir: dir },
    where: dir,
    query: async (text) => (await (await connect()).query<Row>(text)).rows,
    migrateWith: async (folder) => migratePglite(drizzlePglite(await connect()), { migrationsFolder: folder }),
    release: async () => {
      await client?.close();
      client = undefined;
    },
    drop: () => fresh.release(),
  };
  cleanups.push(fresh.drop);
  return fresh;
}

async function freshPostgres(adminUrl: string): Promise<FreshDatabase> {
  const name = `sonde_migrations_${randomUUID().replace(/-/g, '')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const fresh: FreshDatabase = {
    location: { url: url.toString() },
    where: `PostgreSQL database ${name} at ${url.host}`,
    query: async (text) => [...(await client.unsafe(text))],
    migrateWith: (folder) => migratePostgres(drizzlePostgres(client), { migrationsFolder: folder }),
    release: async () => {},
    drop: async () => {
      await client.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
  cleanups.push(fresh.drop);
  return fresh;
}

/** A copy of the function files that a test may change. */
async function functionsCopy(): Promise<string> {
  const dir = await tempDir('sonde-functions-');
  await cp(FUNCTIONS_FOLDER, dir, { recursive: true });
  return dir;
}

/** The old migrations (0000…0014, before the baseline) laid out as drizzle reads them. */
async function migrationsBeforeBaseline(): Promise<string> {
  const fixture = JSON.parse(
    await readFile(new URL('../fixtures/migrations-before-baseline/migrations.json', import.meta.url), 'utf8'),
  ) as { journal: unknown; files: Record<string, string> };
  const dir = await tempDir('sonde-old-migrations-');
  await mkdir(join(dir, 'meta'));
  await writeFile(join(dir, 'meta', '_journal.json'), JSON.stringify(fixture.journal));
  for (const [name, text] of Object.entries(fixture.files)) await writeFile(join(dir, name), text);
  return dir;
}

/** Opens the database through the migrator, runs `look` on it, and closes it. */
/** A copy of the migrations folder that stops before the migration whose tag ends with `suffix`: a database as the code before it left it. */
async function migrationsBefore(suffix: string): Promise<string> {
  const before = await tempDir(`sonde-before${suffix.replaceAll('_', '-')}-`);
  const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const upTo = journal.entries.findIndex((entry) => entry.tag.endsWith(suffix));
  if (upTo < 0) throw new Error(`no migration ends with ${suffix}`);
  await mkdir(join(before, 'meta'));
  await writeFile(join(before, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  for (const { tag } of journal.entries.slice(0, upTo)) await cp(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(before, `${tag}.sql`));
  return before;
}

async function openAndLook<T>(location: DatabaseLocation, functionsFolder: string, look: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(location, { functionsFolder });
  try {
    return await look(database);
  } finally {
    await database.close();
  }
}

const query = async (database: Database, text: string) => rowsOf<Row>(await database.db.execute(sql.raw(text)));

async function recorded(database: Database): Promise<Map<string, { sha256: string; appliedAt: number }>> {
  const rows = await query(database, `select file, sha256, applied_at from ${FUNCTIONS_TABLE}`);
  return new Map(rows.map((row) => [String(row.file), { sha256: String(row.sha256), appliedAt: new Date(row.applied_at as string).getTime() }]));
}

/**
 * A test's time-out, in ms: these migrate fresh databases (without the migrated template of the other
 * tests) and open them up to four times, which took up to 21 s per test on a loaded 2-core machine.
 */
const FRESH_DATABASE_TEST_TIMEOUT_MS = 60_000;

const sha256Of = async (path: string) => createHash('sha256').update(await readFile(path, 'utf8')).digest('hex');

describe.each(testEngines())('the migrator on $name', (engine) => {
  const fresh = () => (engine.name === 'PGlite' ? freshPglite() : freshPostgres(process.env.DATABASE_URL!));

  it('gives a new database the baseline and every function file, and records each file’s SHA-256', async () => {
    const database = await fresh();
    const opened = await openDatabase(database.location);
    cleanups.push(opened.close);

    const history = await query(opened, 'select created_at from drizzle.__drizzle_migrations');
    expect(history.map((row) => Number(row.created_at))).toEqual(readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.folderMillis));
    const files = (await readdir(FUNCTIONS_FOLDER)).filter((name) => name.endsWith('.sql')).sort();
    expect(files).toEqual(['accept_submission.sql', 'mailbox_of.sql', 'queue_counts.sql', 'team_audit_append_only.sql']);
    const hashes = await recorded(opened);
    for (const file of files) expect(hashes.get(file)?.sha256, file).toBe(await sha256Of(join(FUNCTIONS_FOLDER, file)));
    expect(hashes.size).toBe(files.length);
    const functions = await query(
      opened,
      `select proname from pg_proc where pronamespace = 'public'::regnamespace order by proname`,
    );
    expect(functions.map((row) => row.proname)).toEqual(['accept_submission', 'accept_submissions', 'mailbox_of', 'queue_counts_follow', 'queue_state', 'team_audit_append_only']);
    const [mailbox] = await query(opened, `select mailbox_of('Ada.Lovelace+form@GoogleMail.com') as m`);
    expect(mailbox?.m).toBe('adalovelace@gmail.com');
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);

  it('upgrades a database at the baseline: its invite requests enter the review, open ones received, those marked done waitlisted', async () => {
    const database = await fresh();
    const baselineOnly = await tempDir('sonde-baseline-only-');
    const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    await mkdir(join(baselineOnly, 'meta'));
    await writeFile(join(baselineOnly, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
    await cp(join(MIGRATIONS_FOLDER, `${journal.entries[0]!.tag}.sql`), join(baselineOnly, `${journal.entries[0]!.tag}.sql`));
    await database.migrateWith(baselineOnly);
    const insert = (kind: string, email: string, extra: string) =>
      database.query(
        `insert into submissions (kind, body_sha256, email, mailbox, client_key, body${extra ? ', handled_at, due_at' : ''})
         values ('${kind}', 'x', '${email}', '${email}', 'k', '{}'${extra})`,
      );
    await insert('invite', 'open@example.com', '');
    await insert('invite', 'done@example.com', ", now(), null");
    await insert('privacy', 'privacy@example.com', ", null, now() + interval '45 days'");
    await database.release();

    const states = await openAndLook(database.location, FUNCTIONS_FOLDER, (opened) =>
      query(opened, 'select email, review_state, cohort_id from submissions order by email'),
    );
    expect(states).toEqual([
      { email: 'done@example.com', review_state: 'waitlisted', cohort_id: null },
      { email: 'open@example.com', review_state: 'received', cohort_id: null },
      { email: 'privacy@example.com', review_state: null, cohort_id: null },
    ]);
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);

  it('upgrades a database holding look-alike cohort names ("Two", "two", "Two ", " Two", "Two\\u00a0"): each normalised, the first keeping its name and each later one its id\'s first 8 characters after it, none lost', async () => {
    const database = await fresh();
    await database.migrateWith(await migrationsBefore('_cohort_names'));
    const names = ['Two', 'two', 'Two ', ' Two', 'Two\u00a0', 'Ｔhree'];
    for (const [day, name] of names.entries()) {
      await database.query(`insert into cohorts (name, starts_on, created_at, created_by) values ('${name}', '2027-01-15', timestamptz '2026-01-01' + interval '${day} days', 'ops')`);
    }
    await database.release();

    const stored = await openAndLook(database.location, FUNCTIONS_FOLDER, (opened) => query(opened, 'select id::text, name from cohorts order by created_at'));
    const suffixed = (name: string, row: number) => `${name} (${String(stored[row]!.id).slice(0, 8)})`;
    expect(stored.map((row) => row.name)).toEqual(['Two', suffixed('two', 1), suffixed('Two', 2), suffixed('Two', 3), suffixed('Two', 4), 'Three']);
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);

  it("upgrades a database whose request addresses were lower-cased whole: each gets its local part back as the visitor typed it, the domain lower-cased, and its mailbox stays", async () => {
    const database = await fresh();
    await database.migrateWith(await migrationsBefore('_address_case'));
    for (const typed of ['Ada.Lovelace+Beta@GMail.com', 'grace@example.com', 'O.Brien@Mail.Example.IE']) {
      const lowered = typed.toLowerCase();
      await database.query(
        `insert into submissions (kind, body_sha256, email, mailbox, client_key, body, review_state)
         values ('invite', 'x', '${lowered}', '${lowered}', 'k', '{"data": {"workEmail": "${typed}"}}', 'received')`,
      );
    }
    await database.release();

    const stored = await openAndLook(database.location, FUNCTIONS_FOLDER, (opened) => query(opened, 'select email, mailbox from submissions order by email collate "C"'));
    expect(stored).toEqual([
      { email: 'Ada.Lovelace+Beta@gmail.com', mailbox: 'ada.lovelace+beta@gmail.com' },
      { email: 'O.Brien@mail.example.ie', mailbox: 'o.brien@mail.example.ie' },
      { email: 'grace@example.com', mailbox: 'grace@example.com' },
    ]);
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);

  it('applies a changed function file again on the next open, and only that file', async () => {
    const database = await fresh();
    const functions = await functionsCopy();
    const first = await openAndLook(database.location, functions, recorded);

    await appendFile(join(functions, 'mailbox_of.sql'), `COMMENT ON FUNCTION mailbox_of(text) IS 'changed here';\n`);
    const [second, comment] = await openAndLook(database.location, functions, async (opened) => [
      await recorded(opened),
      (await query(opened, `select obj_description('mailbox_of(text)'::regprocedure, 'pg_proc') as c`))[0]?.c,
    ] as const);

    expect(comment).toBe('changed here');
    expect(second.get('mailbox_of.sql')?.sha256).toBe(await sha256Of(join(functions, 'mailbox_of.sql')));
    expect(second.get('mailbox_of.sql')!.appliedAt).toBeGreaterThan(first.get('mailbox_of.sql')!.appliedAt);
    expect(second.get('accept_submission.sql')).toEqual(first.get('accept_submission.sql'));

    expect(await openAndLook(database.location, functions, recorded)).toEqual(second);
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);

  it("recounts the queue's counts from the requests when queue_counts.sql is applied again, a fold of another instance meanwhile", async () => {
    const database = await fresh();
    const functions = await functionsCopy();
    const counts = `select kind, state, sum(n)::int as n from queue_counts group by 1, 2 order by 1, 2`;
    await openAndLook(database.location, functions, async (opened) => {
      await query(
        opened,
        `insert into submissions (kind, review_state, email, mailbox, client_key, body_sha256, body)
         select 'invite', case when i % 3 = 0 then 'declined' else 'received' end, 'ada' || i || '@example.com', 'ada' || i || '@example.com', 'k', 's', '{}'
         from generate_series(1, 30) i`,
      );
      // three more, one statement each: three rows to fold
      for (const i of [31, 32, 33]) await query(opened, `insert into submissions (kind, review_state, email, mailbox, client_key, body_sha256, body) values ('invite', 'received', 'ada${i}@example.com', 'ada${i}@example.com', 'k', 's', '{}')`);
      // a count gone wrong: the recount must not add to it
      await query(opened, `insert into queue_counts (kind, state, n) values ('invite', 'spam', 7)`);
    });
    await appendFile(join(functions, 'queue_counts.sql'), `COMMENT ON FUNCTION queue_state(text, timestamptz) IS 'changed here';\n`);
    // on PostgreSQL, another instance folds the counts while the file is applied again: the fold holds its rows
    // until it commits, 1 s after its statement ran; the recount waits for it, and counts each request once
    const folder = engine.name === 'PostgreSQL' ? postgres(String((database.location as { url: string }).url), { max: 1, onnotice: () => {} }) : undefined;
    let folded = () => {};
    const foldDone = new Promise<void>((resolve) => (folded = resolve));
    const fold = folder?.begin(async (tx) => {
      await tx.unsafe(`with gone as (delete from queue_counts returning kind, state, n)
        insert into queue_counts (kind, state, n) select kind, state, sum(n)::int from gone group by 1, 2 having sum(n) <> 0`);
      folded();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    });
    if (fold) await foldDone;
    const after = await openAndLook(database.location, functions, (opened) => query(opened, counts));
    await fold;
    await folder?.end();
    expect(after).toEqual([
      { kind: 'invite', state: 'declined', n: 10 },
      { kind: 'invite', state: 'received', n: 23 },
    ]);
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);

  it('refuses a database made by the migrations before the baseline with one line, and changes nothing in it', async () => {
    const database = await fresh();
    await database.migrateWith(await migrationsBeforeBaseline());
    await database.query(
      `insert into submissions (kind, body_sha256, email, mailbox, client_key, body) values ('invite', 'x', 'ada@example.com', 'ada@example.com', 'k', '{}')`,
    );
    const contents = async () => {
      const tables = await database.query(
        `select table_schema || '.' || table_name as t from information_schema.tables
         where table_schema not in ('pg_catalog', 'information_schema') order by 1`,
      );
      const counts: Record<string, number> = {};
      for (const { t } of tables) counts[String(t)] = Number((await database.query(`select count(*) as n from ${String(t)}`))[0]!.n);
      return counts;
    };
    const before = await contents();
    expect(before['drizzle.__drizzle_migrations']).toBe(15);
    await database.release();

    const line =
      `${database.where} ${OLD_HISTORY_MESSAGE}; it is not upgraded in place: export what you need with the previous version ` +
      '(npm run requests -- export), then move the directory away (PGlite) or use a new database (PostgreSQL) and start again';
    await expect(openDatabase(database.location)).rejects.toThrow(line);
    expect(line).not.toContain('\n');

    // the team's command line prints that line and exits 1
    const err: string[] = [];
    const code = await runRequests(['list'], {
      connect: () => connectForTeam({ database: database.location } as ServerConfig),
      out: () => {},
      err: (text) => err.push(text),
    });
    expect({ code, err }).toEqual({ code: 1, err: [line] });

    expect(await contents()).toEqual(before);
    await database.release();
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);

  it.runIf(engine.name === 'PostgreSQL')('applies a changed file once when two instances open the database at once', async () => {
    const database = await fresh();
    const functions = await functionsCopy();
    const counter = join(functions, 'zz_counter.sql');
    await writeFile(counter, 'create table if not exists counter_runs (n int);\ninsert into counter_runs values (1);\n');
    await (await openDatabase(database.location, { functionsFolder: functions })).close();

    await appendFile(counter, '-- changed\n');
    const both = await Promise.all([
      openDatabase(database.location, { functionsFolder: functions, maxConnections: 1 }),
      openDatabase(database.location, { functionsFolder: functions, maxConnections: 1 }),
    ]);
    await Promise.all(both.map((opened) => opened.close()));

    const [runs, hashes] = await openAndLook(database.location, functions, async (opened) => [
      (await query(opened, 'select count(*) as n from counter_runs'))[0]?.n,
      await recorded(opened),
    ] as const);
    expect(Number(runs)).toBe(2);
    expect(hashes.get('zz_counter.sql')?.sha256).toBe(await sha256Of(counter));
  }, FRESH_DATABASE_TEST_TIMEOUT_MS);
});
