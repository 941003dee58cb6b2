import { afterEach, beforeAll, beforeEach } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import type { TestEngine } from './database.ts';
import { startTestServer } from './server.ts';
import { testConfig, writeStandInSite } from './site.ts';
import { enrolledClient, type teamClient } from './teamClient.ts';

/** What each test of the team's API gets: a fresh database, the server on it, and a member signed in. */
export interface SignedInConsole {
  database: Database;
  server: RunningServer;
  client: ReturnType<typeof teamClient>;
}

/**
 * Registers the hooks of a suite of the team's API over real HTTP: before each test a database of
 * `engine`, the server (a stand-in site) on it and a member enrolled through a link and signed in
 * (`member.name`, the decider the timeline names); after it, both closed.
 * @param opened - receives each test's console, e.g. `(c) => ({ database, server, client } = c)`
 * @param logger - the server's logger: silent unless a suite reads what the server logs
 */
export function signedInConsole(
  engine: TestEngine,
  opened: (console: SignedInConsole) => void,
  member: { name?: string | null } = {},
  logger: Logger = createLogger('silent'),
): void {
  let distDir: string;
  let current: SignedInConsole | undefined;
  beforeAll(async () => {
    distDir = await writeStandInSite();
  });
  beforeEach(async () => {
    const database = await engine.open();
    const server = await startTestServer(testConfig(distDir), logger, { database });
    current = { database, server, client: await enrolledClient(server, database.db, member) };
    opened(current);
  });
  afterEach(async () => {
    await current?.server.stop();
    await current?.database.close();
    current = undefined;
  });
}
