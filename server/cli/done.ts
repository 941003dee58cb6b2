import type { Command } from 'commander';
import type { Db } from '../db/database.ts';
import { lockRequest, markHandled } from '../db/submissions.ts';
import { ExitError, oneLineText, UUID } from './arguments.ts';
import type { CommandContext } from './context.ts';
import type { Row } from './summary.ts';

/** The request to change, locked until the command commits; exit 1 when there is none. */
export async function findOne(db: Db, id: string): Promise<Row> {
  const row = UUID.test(id) ? await lockRequest(db, id) : undefined;
  if (!row) throw new ExitError(`no request ${id}`, 1);
  return row;
}

/** `done <id>`: marks an invite request handled, keeping who, when and a note (a privacy request is answered with `respond`). */
export function addDoneCommand(program: Command, { io, withDb }: CommandContext): void {
  program
    .command('done')
    .description('marks a request handled, keeping who, when and a note')
    .argument('<id>', 'the request id')
    .option('--note <text>', 'how it was handled', oneLineText)
    .option('--by <name>', 'who handled it (default: your user name)', oneLineText)
    .action(async (id: string, options: { note?: string; by?: string }) => {
      const message = await withDb('write', async (db) => {
        const row = await findOne(db, id);
        if (row.kind === 'privacy') throw new ExitError(`request ${id} is a privacy request: answer it with respond (the record and the mail the law asks for)`, 2);
        if (row.handledAt) return `request ${id} was already marked done on ${row.handledAt.toISOString()} by ${row.handledBy}`;
        const by = options.by ?? io.user;
        await markHandled(db, id, { at: io.now(), by, note: options.note ?? null });
        return `request ${id} marked done by ${by}`;
      });
      io.out(message);
    });
}
