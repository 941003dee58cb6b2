// `npm run requests -- <command>`: the team's command line over the stored requests.
// It reads the same database as the server: `DATABASE_URL`, else PGlite in `SONDE_PGLITE_DIR`
// (default .data/pglite); while a server holds that directory, the server runs the command
// (server/cli/teamChannel.ts). The program and the database drivers (server/cli/requests.ts) are loaded
// only when the command runs here: a command the server answers starts in about a third of the time.
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventsEnabled, publicOriginOf, readConfig, type ServerConfig } from '../config.ts';
import { askRunningServer } from './teamChannel.ts';

/**
 * The command line as `npm run requests` runs it. With PGlite, while a server holds the directory and
 * answers on its team channel (server/cli/teamChannel.ts), the server runs the command and this prints its
 * answer; otherwise the command runs here (PostgreSQL, or PGlite's directory opened under its lock).
 * @returns the exit code, as `runRequests` (server/cli/requests.ts); 1 when the server was reached but did not answer
 */
export async function runTeamCommandLine(
  config: ServerConfig,
  argv: string[],
  io: { out: (text: string) => void; err: (text: string) => void; user?: string },
): Promise<number> {
  const user = io.user ?? userInfo().username;
  const args = withFileResolved(argv);
  if ('pgliteDir' in config.database) {
    let answer;
    try {
      answer = await askRunningServer(config.database.pgliteDir, { argv: args, user });
    } catch (error) {
      io.err((error as Error).message);
      return 1;
    }
    if (answer) {
      answer.out.forEach(io.out);
      answer.err.forEach(io.err);
      return answer.code;
    }
  }
  const [{ runRequests }, { connectForTeam }] = await Promise.all([import('./requests.ts'), import('./connect.ts')]);
  return runRequests(args, {
    connect: () => connectForTeam(config),
    mailDir: config.mail.emlDir,
    events: eventsEnabled(config),
    publicOrigin: publicOriginOf(config, config.port),
    mailFrom: config.mail.from,
    database: config.database,
    user,
    out: io.out,
    err: io.err,
  });
}

/**
 * `argv` with the file of `backup <file>` or `restore <file>` made absolute, from this working directory:
 * the running server that may run the command (its own working directory) reads or writes that file.
 */
function withFileResolved(argv: string[]): string[] {
  const [command, file, ...rest] = argv;
  if ((command !== 'backup' && command !== 'restore') || file === undefined || file.startsWith('-')) return argv;
  return [command, resolve(file), ...rest];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let config: ServerConfig;
  try {
    config = readConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  // The exit code is set, not forced: process.exit() would cut what stdout still holds for a pipe
  // (`requests -- export | wc -c` stopped at 64 KiB); the process ends once its output is written.
  process.exitCode = await runTeamCommandLine(config, process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
}
