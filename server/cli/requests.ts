// The team's command line over the stored requests, as a program: its commands, run on a database
// connection given to it. `npm run requests` starts it from server/cli/main.ts; a running server runs it
// for a command sent over its team channel (server/cli/teamChannel.ts). Each command is one transaction.
import { userInfo } from 'node:os';
import { Command, CommanderError } from 'commander';
import { inTeamTransaction } from '../db/teamTransaction.ts';
import { ExitError } from './arguments.ts';
import type { TeamConnection } from './connect.ts';
import type { CommandContext } from './context.ts';
import { addBackupCommands } from './backup.ts';
import { addDecisionCommands } from './decisions.ts';
import { addDigestCommands } from './digest.ts';
import { addPrivacyCommands } from './privacyAnswers.ts';
import { addReadCommands } from './read.ts';
import { addRetentionCommands } from './retention.ts';
import { addTeamCommands } from './team.ts';

export type { RequestSummary } from '../db/summary.ts';

/**
 * The command line, writing to `out`. Commands: `list`, `show <id>`, `export`; the review's decisions
 * (`accept`, `waitlist` or `done`, `decline`, `spam`, `reopen`), `note` and `cohort add|list`; `verify <id>`,
 * `respond <id>` and `extend <id>` (privacy requests); `subject --email`, `erase --email`, `purge`; `team
 * add|link|list|remove`; `backup <file>` and `restore <file>`; `digest [--send]`. A command that decides writes its record and the mail (and event) it causes into
 * the outbox in one statement; the running server sends them.
 * @param io - what every command is given ({@link CommandContext}), and `connect`: opens the database once a command runs
 * @throws {@link ExitError} (code 1) for an unknown id; commander's errors (code 2 after {@link runRequests}) for bad arguments
 */
function requestsProgram(io: CommandContext['io'] & { connect: () => Promise<TeamConnection> }): Command {
  const withDb: CommandContext['withDb'] = async (mode, work) => {
    const connection = await io.connect();
    try {
      return await inTeamTransaction(connection.db, mode, work);
    } finally {
      await connection.close();
    }
  };
  const withConnection: CommandContext['withConnection'] = async (work) => {
    const connection = await io.connect();
    try {
      return await work(connection);
    } finally {
      await connection.close();
    }
  };
  const context: CommandContext = { io, withDb, withConnection };
  const program = new Command('requests')
    .description("Sonde's stored invite and privacy requests: read, export, decide and answer them; and the team's members.")
    .showHelpAfterError(false);
  addReadCommands(program, context);
  addDecisionCommands(program, context);
  addPrivacyCommands(program, context);
  addRetentionCommands(program, context);
  addTeamCommands(program, context);
  addBackupCommands(program, context);
  addDigestCommands(program, context);
  return program;
}

/**
 * Runs the command line on `argv` (the arguments after `requests`).
 * @returns the exit code: 0, 1 for an unknown id or an unreachable database, 2 for bad arguments
 */
export async function runRequests(
  argv: string[],
  io: Omit<CommandContext['io'], 'now' | 'user'> & {
    connect: () => Promise<TeamConnection>;
    err: (text: string) => void;
    /** the clock; the system's by default */
    now?: () => Date;
    /** who runs it: `--by`'s default; the operating-system user by default */
    user?: string;
  },
): Promise<number> {
  const program = requestsProgram({
    connect: io.connect,
    out: io.out,
    now: io.now ?? (() => new Date()),
    user: io.user ?? userInfo().username,
    ...(io.mailDir ? { mailDir: io.mailDir } : {}),
    ...(io.events ? { events: io.events } : {}),
    ...(io.publicOrigin ? { publicOrigin: io.publicOrigin } : {}),
    ...(io.mailFrom ? { mailFrom: io.mailFrom } : {}),
    ...(io.database ? { database: io.database } : {}),
  });
  // every command, sub-commands included (`cohort add`): errors reach the caller, output goes to io
  const override = (command: Command) => {
    command.exitOverride();
    command.configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) });
    command.commands.forEach(override);
  };
  override(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof ExitError) {
      io.err(error.message);
      return error.code;
    }
    if (error instanceof CommanderError) {
      // help and version are not errors; commander has already printed its one-line message
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.help' || error.code === 'commander.version' ? 0 : 2;
    }
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

let commandNames: Set<string> | undefined;

/**
 * The command `argv` names, for a log line: its first argument when that is one of the commands, else
 * `unknown` (a mistyped first argument may be an email address, which no log line may hold).
 */
export function commandNameOf(argv: string[]): string {
  commandNames ??= new Set(
    requestsProgram({ connect: () => Promise.reject(new Error('not connected')), out: () => {}, now: () => new Date(), user: '' }).commands.map((command) => command.name()),
  );
  const [first] = argv;
  return first !== undefined && commandNames.has(first) ? first : 'unknown';
}

/**
 * Every command the command line takes, by its full name (`accept`, `cohort add`, `team list`, …): the
 * commands with an action, sub-commands spelled after their parent. Nothing is connected or run.
 */
export function commandPaths(): string[] {
  const program = requestsProgram({ connect: () => Promise.reject(new Error('not connected')), out: () => {}, now: () => new Date(), user: '' });
  const leaves = (command: Command, prefix: string): string[] =>
    command.commands.length === 0 ? [prefix + command.name()] : command.commands.flatMap((child) => leaves(child, `${prefix}${command.name()} `));
  return program.commands.flatMap((command) => leaves(command, ''));
}
