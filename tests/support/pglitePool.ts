// A worker's PGlite databases that tests have closed, emptied and kept for the next test: opening a
// PGlite copy costs about 0.5 s of CPU (the file system bundle, the 40 MB data directory, PostgreSQL's
// start), emptying one about 30 ms. Each test still gets what a new copy of the migrated template is:
// the same schema, functions, migration history, sequences and table statistics (an index's planner
// estimate aside: TRUNCATE resets it), no row in any table, a new session. One whose catalog differs from the copy's after emptying
// (a test changed a function, a table, or analyzed one) is closed for good instead.
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { Database, Db } from '../../server/db/database.ts';
import * as schema from '../../server/db/schema.ts';

/** A database a test closed, and the catalog it had when it was new. */
interface Pooled {
  client: PGlite;
  /** {@link catalogOf} the copy when it was new */
  pristine: string;
}

/** How many emptied databases a worker keeps (about 150 MB each); a test rarely holds more than two at once. */
const KEPT = 2;
const idle: Pooled[] = [];

/** The schemas whose tables hold the application's rows (Drizzle's own bookkeeping is kept). */
const APP_TABLES = `
  select format('%I.%I', schemaname, tablename) as name from pg_tables
  where schemaname not in ('pg_catalog', 'information_schema', 'drizzle')`;

/**
 * One string that changes when anything a test could see besides rows changes: relations (with their
 * statistics: reltuples, relpages), columns and defaults, functions' definitions, constraints, triggers,
 * indexes, sequences, collected statistics, database settings, roles, extensions, schemas, large objects,
 * and Drizzle's migration and function-file records.
 */
const CATALOG = `
  select md5(string_agg(line, E'\\n' order by line)) as catalog from (
    -- an index's reltuples and relpages are the planner's estimate only (TRUNCATE sets them to -1 and 0)
    select format('class %s.%s %s %s', n.nspname, c.relname, c.relkind,
      case when c.relkind = 'i' then '' else format('%s %s', c.reltuples, c.relpages) end) as line
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all select format('column %s.%s %s %s %s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and a.attnum > 0 and not a.attisdropped
    union all select format('function %s.%s %s', n.nspname, p.proname, md5(pg_get_functiondef(p.oid)))
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema') and p.prokind in ('f', 'p')
    union all select format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) from pg_constraint
      where connamespace not in (select oid from pg_namespace where nspname in ('pg_catalog', 'information_schema'))
    union all select format('trigger %s %s %s', tgrelid::regclass, tgname, tgenabled) from pg_trigger where not tgisinternal
    union all select format('index %s', indexdef) from pg_indexes where schemaname <> 'pg_catalog'
    union all select format('sequence %s.%s %s', schemaname, sequencename, last_value) from pg_sequences
    union all select format('statistics %s', count(*)) from pg_statistic
    union all select format('settings %s', string_agg(array_to_string(setconfig, ','), ';')) from pg_db_role_setting
    union all select format('role %s %s', rolname, rolsuper) from pg_roles
    union all select format('extension %s %s', extname, extversion) from pg_extension
    union all select format('schema %s', nspname) from pg_namespace
    union all select format('large objects %s', count(*)) from pg_largeobject_metadata
    union all select format('migration %s %s', id, hash) from drizzle.__drizzle_migrations
    union all select format('function file %s', f.*) from drizzle.sonde_functions f
  ) lines`;

async function catalogOf(client: PGlite): Promise<string> {
  return (await client.query<{ catalog: string }>(CATALOG)).rows[0]!.catalog;
}

/** Empties `client` and starts a new session on it; false when it cannot be kept (closed, mid-transaction, changed). */
async function empty({ client, pristine }: Pooled): Promise<boolean> {
  try {
    if (client.closed) return false;
    await client.exec('discard all'); // settings, prepared statements, LISTEN, advisory locks, temporary tables
    const tables = (await client.query<{ name: string }>(APP_TABLES)).rows.map((row) => row.name);
    if (tables.length > 0) await client.exec(`truncate ${tables.join(', ')} restart identity cascade`);
    await client.query('select pg_stat_reset()');
    return (await catalogOf(client)) === pristine;
  } catch {
    return false;
  }
}

/**
 * A handle on `pooled` for one test, as `openDatabase` returns it: once closed, every query through it
 * (and `ping`) fails with PGlite's own "PGlite is closed", as on a closed PGlite, and the database is
 * emptied and kept for the next test of this worker.
 */
function lease(pooled: Pooled): Database {
  let released = false;
  const closedError = () => new Error('PGlite is closed');
  const client = new Proxy(pooled.client, {
    get(target, property) {
      if (property === 'closed') return released || target.closed;
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function' || property === 'constructor') return value;
      return released ? () => Promise.reject(closedError()) : (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
  let closing: Promise<void> | undefined;
  return {
    db: drizzle(client, { schema }) as unknown as Db,
    engine: 'pglite',
    ping: async () => {
      if (released) throw closedError();
      await pooled.client.query('select 1');
    },
    close: () =>
      (closing ??= (async () => {
        released = true;
        if (idle.length < KEPT && (await empty(pooled))) idle.push(pooled);
        else if (!pooled.client.closed) await pooled.client.close();
      })()),
  };
}

/**
 * An emptied database that an earlier test of this worker closed, or else a new one from `open()`
 * (a copy of the migrated template), as a handle for one test.
 */
export async function pooledPglite(open: () => Promise<Database>): Promise<Database> {
  const kept = idle.pop();
  if (kept) return lease(kept);
  const database = await open();
  const client = (database.db as unknown as { $client: PGlite }).$client;
  return lease({ client, pristine: await catalogOf(client) });
}
