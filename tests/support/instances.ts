import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../server/db/database.ts';
import { testEngines } from './database.ts';
import { spawnServer, type ServerProcess } from './process.ts';
import { writeStandInSite } from './site.ts';

/** Several server processes sharing one PostgreSQL database, as README "Deploying" → "Several instances" runs them. */
export interface Instances {
  /** the server processes, in the order they were started (those started by {@link Instances.start} too) */
  servers: ServerProcess[];
  /** the shared database, open in the test's process to read what the instances stored */
  database: Database;
  /** the environment every instance was started with (`DATABASE_URL`, `SONDE_MAIL_DIR`, the stand-in site…) */
  env: Record<string, string>;
  /** the `.eml` directory all the instances write their mail into (`SONDE_MAIL_DIR`) */
  mailDir: string;
  /** starts one more instance with the same environment (plus `env`), e.g. to restart one after `kill -9` */
  start(env?: Record<string, string>): Promise<ServerProcess>;
  /** kills every instance (SIGKILL), waits for them to exit, then closes and drops the database */
  stop(): Promise<void>;
}

/**
 * Starts `count` server processes (server/main.ts, {@link spawnServer}) at once on one new PostgreSQL
 * database (a copy of the migrated template, tests/support/database.ts), all writing their mail as `.eml`
 * files into one directory. Needs `DATABASE_URL` (a test using it runs only when it is set: PGlite cannot
 * be shared between processes).
 * @param env added to each instance's environment (e.g. `SONDE_TRUST_PROXY`, a rate limit)
 * @throws when `DATABASE_URL` is unset, or an instance does not start (those that did are stopped)
 */
export async function startInstances(count: number, env: Record<string, string> = {}): Promise<Instances> {
  const engine = testEngines().find((candidate) => candidate.name === 'PostgreSQL');
  if (!engine) throw new Error('several instances need PostgreSQL: set DATABASE_URL');
  const database = await engine.open();
  const sharedEnv = {
    DATABASE_URL: (engine.location() as { url: string }).url,
    SONDE_DIST_DIR: await writeStandInSite(),
    SONDE_MAIL_DIR: await mkdtemp(join(tmpdir(), 'sonde-mail-')),
    ...env,
  };
  const servers: ServerProcess[] = [];
  const start = async (more: Record<string, string> = {}) => {
    const server = await spawnServer({ ...sharedEnv, ...more });
    servers.push(server);
    return server;
  };
  const stop = async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await database.close();
  };
  const started = await Promise.allSettled(Array.from({ length: count }, () => start()));
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { servers, database, env: sharedEnv, mailDir: sharedEnv.SONDE_MAIL_DIR, start, stop };
}
