import { Option, type Command } from 'commander';
import { RETENTION } from '#shared/policy';
import { PrivacyStepError, takePrivacyStep, type PrivacyStep } from '../db/privacySteps.ts';
import { unfoundedResponse } from '../db/privacyCourse.ts';
import type { PrivacyOutcome } from '../db/schema.ts';
import { ExitError, oneLineName, recordReason, requestIdArgument } from './arguments.ts';
import type { CommandContext } from './context.ts';

/** A step refused as the command line ends on it: exit 2 for a bad argument, else 1. */
function exitOn(refusal: { message: string; badArgument: boolean }): ExitError {
  return new ExitError(refusal.message, refusal.badArgument ? 2 : 1);
}

/**
 * `respond <id>`, `verify <id>` and `extend <id>`: the team's answers to a privacy request. Each asks the
 * course's chart (machines/privacyCourseMachine.ts, through server/db/privacyCourse.ts) whether the step
 * is possible from the stored record, locked, at `io.now()`, and prints its refusal when it is not.
 * `respond` and `extend` write the record of 11 CCR §7101 and the requester's mail into the outbox in
 * one statement; the running server sends it.
 */
export function addPrivacyCommands(program: Command, { io, withDb }: CommandContext): void {
  /** The step on request `id`, in one write transaction; its refusal as an exit. */
  const take = (id: string, step: PrivacyStep) =>
    withDb('write', (db) => takePrivacyStep(db, id, step, io.now())).catch((error: unknown) => {
      throw error instanceof PrivacyStepError ? exitOn(error) : error;
    });

  program
    .command('respond')
    .description('records the response to a privacy request (11 CCR §7101, §7022, §7024) and mails the requester its outcome')
    .argument('<id>', 'the privacy request id', requestIdArgument)
    .addOption(new Option('--outcome <outcome>', 'what was done').choices(['complied', 'denied', 'partly']).makeOptionMandatory())
    .option('--reason <text>', 'the basis of a denial or a partial answer (required then), or a note to the requester; kept 24 months, so nothing that names the person', recordReason)
    .option('--attach-subject', "attach everything stored about the requester as JSON (the answer to Access/Know or Data Portability); refused for an unverified request")
    .option('--by <name>', 'who responded (default: your user name)', oneLineName)
    .action(async (id: string, options: { outcome: PrivacyOutcome; reason?: string; attachSubject?: boolean; by?: string }) => {
      const unfounded = unfoundedResponse(options);
      if (unfounded) throw exitOn({ message: unfounded.message, badArgument: true });
      const by = options.by ?? io.user;
      await take(id, { type: 'respond', outcome: options.outcome, ...(options.reason ? { reason: options.reason } : {}), attachSubject: options.attachSubject ?? false, by, events: io.events ?? false });
      io.out(`request ${id} answered (${options.outcome}) by ${by}; the outcome mail${options.attachSubject ? ', with their data attached,' : ''} goes out with the server's outbox`);
    });

  program
    .command('verify')
    .description("records that the requester of a privacy request confirmed it is them (11 CCR §7060), e.g. by replying from the request's address")
    .argument('<id>', 'the privacy request id', requestIdArgument)
    .action(async (id: string) => {
      const taken = await take(id, { type: 'verify' });
      io.out(taken.message ?? `request ${id} verified`);
    });

  program
    .command('extend')
    .description(`moves a privacy request's due date ${RETENTION.privacyResponseDays} days on, once, before it is due, and mails the requester the reason (11 CCR §7021(b))`)
    .argument('<id>', 'the privacy request id', requestIdArgument)
    .requiredOption('--reason <text>', 'why more time is needed: the requester is told; kept 24 months, so nothing that names the person', recordReason)
    .action(async (id: string, options: { reason: string }) => {
      const { dueAt } = await take(id, { type: 'extend', reason: options.reason });
      io.out(`request ${id} now due ${dueAt!.toISOString().slice(0, 10)}; the notice with the reason goes out with the server's outbox`);
    });
}
