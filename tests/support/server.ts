import type { ServerConfig } from '../../server/config.ts';
import type { Logger } from '../../server/logger.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { openPglite } from './database.ts';

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
