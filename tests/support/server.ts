import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { ServerConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { openPglite, type TestEngine } from './database.ts';
import { freePort, smtpServer } from './mailServer.ts';
import { testConfig, writeStandInSite } from './site.ts';

/**
 * `startServer` (server/main.ts) for tests. A configuration on in-memory PGlite (`testConfig()`'s
 * default) gets a copy of the global setup's migrated database (tests/support/database.ts, about 0.3 s)
 * instead of migrating a new one (about 2 s); any other database is opened as the server would.
 * The database is closed by `stop()` either way, and the copy made here when the server fails to start.
 * The team's reminders (the overdue alert, the daily digest) do not run unless `options.reminders` asks
 * for them (tests/server/digest.test.ts): a check at start or at a minute's tick would add its mail to the
 * outbox of a test about something else.
 * @returns the running server (server/main.ts `RunningServer`)
 * @throws what `startServer` throws (the site not built, the port taken, the database not opened)
 */
export async function startTestServer(
  config: ServerConfig,
  logger: Logger,
  options: Parameters<typeof startServer>[2] = {},
): Promise<RunningServer> {
  const inMemory = 'pgliteDir' in config.database && config.database.pgliteDir.startsWith('memory://');
  const copy = options.database === undefined && inMemory ? await openPglite() : undefined;
  try {
    return await startServer(config, logger, { reminders: false, ...options, database: options.database ?? copy });
  } catch (error) {
    await copy?.close();
    throw error;
  }
}

/** What {@link serverWithSmtp} gives each test: read in a test or a hook, never at collection time. */
export interface ServerWithSmtp {
  /** the SMTP server the site's mail goes to, shared by the file's tests, emptied before each */
  readonly smtp: Awaited<ReturnType<typeof smtpServer>>;
  /** this test's database, fresh, on the engine given */
  readonly database: Database;
  /** this test's server, on that database, its mail sent to `smtp` */
  readonly server: RunningServer;
}

/**
 * Registers the hooks of a describe block whose every test runs a server on a fresh database of `engine`,
 * its mail sent over SMTP to one real SMTP server (tests/support/mailServer.ts) started for the block; the
 * server and database are closed after each test, the SMTP server after the block. Call it at the top of
 * the block.
 * @returns getters for the running parts ({@link ServerWithSmtp})
 */
export function serverWithSmtp(engine: TestEngine): ServerWithSmtp {
  let smtp: Awaited<ReturnType<typeof smtpServer>> | undefined;
  let smtpPort = 0;
  let distDir = '';
  let database: Database | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    smtpPort = await freePort();
    smtp = await smtpServer(smtpPort);
    distDir = await writeStandInSite();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  beforeEach(async () => {
    smtp!.received.length = 0;
    database = await engine.open();
    const config = testConfig(distDir);
    server = await startTestServer({ ...config, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}` } }, createLogger('silent'), { database });
  });
  afterEach(async () => {
    await server?.stop();
    await database?.close();
  });
  const started = <T>(part: T | undefined, name: string): T => part ?? expect.fail(`${name} is read before its hook ran`);
  return {
    get smtp() {
      return started(smtp, 'smtp');
    },
    get database() {
      return started(database, 'database');
    },
    get server() {
      return started(server, 'server');
    },
  };
}
