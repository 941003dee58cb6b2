import { Option, type Command } from 'commander';
import { COURSE_STATES, type CourseState } from '#machines/privacyCourseMachine';
import { RETENTION } from '#shared/policy';
import { PrivacyStepError, takePrivacyStep, type PrivacyStep } from '../db/privacySteps.ts';
import { unfoundedResponse } from '../db/privacyCourse.ts';
import { auditCommandLine } from '../db/team.ts';
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
 * one statement; the running server sends it. With `--from <state>` (a script acting on an earlier `list`),
 * the step is taken only if the course is still in that state, else exit 1 naming who moved it and when.
 */
export function addPrivacyCommands(program: Command, { io, withDb }: CommandContext): void {
  /** The step on request `id`, in one write transaction, from the course state `from` when given; its refusal as an exit. */
  const take = (id: string, step: PrivacyStep, from?: CourseState) =>
    withDb('write', async (db) => {
      const at = io.now();
      const taken = await takePrivacyStep(db, id, step, at, from);
      // a step that changed nothing (verified already) is not audited, as on the console
      if (taken.changed) await auditCommandLine(db, { at, action: 'decision', requestId: id, name: step.type });
      return taken;
    }).catch((error: unknown) => {
      throw error instanceof PrivacyStepError ? exitOn(error) : error;
    });
  /** `--from <state>`: the step is taken only if the request is still in this course state (as an earlier `list` or `show` found it). */
  const fromOption = () =>
    new Option('--from <state>', 'take the step only if the request is still in this course state (as seen earlier); else nothing changes, exit 1').choices(COURSE_STATES);

  program
    .command('respond')
    .description('records the response to a privacy request (11 CCR §7101, §7022, §7024) and mails the requester its outcome')
    .argument('<id>', 'the privacy request id', requestIdArgument)
    .addOption(new Option('--outcome <outcome>', 'what was done').choices(['complied', 'denied', 'partly']).makeOptionMandatory())
    .option('--reason <text>', 'the basis of a denial or a partial answer (required then), or a note to the requester; kept 24 months, so nothing that names the person', recordReason)
    .option('--attach-subject', "attach everything stored about the requester as JSON (the answer to Access/Know or Data Portability); refused for an unverified request")
    .option('--by <name>', 'who responded (default: your user name)', oneLineName)
    .addOption(fromOption())
    .action(async (id: string, options: { outcome: PrivacyOutcome; reason?: string; attachSubject?: boolean; by?: string; from?: CourseState }) => {
      const unfounded = unfoundedResponse(options);
      if (unfounded) throw exitOn({ message: unfounded.message, badArgument: true });
      const by = options.by ?? io.user;
      const step = { type: 'respond', outcome: options.outcome, ...(options.reason ? { reason: options.reason } : {}), attachSubject: options.attachSubject ?? false, by, events: io.events ?? false } as const;
      await take(id, step, options.from);
      io.out(`request ${id} answered (${options.outcome}) by ${by}; the outcome mail${options.attachSubject ? ', with their data attached,' : ''} goes out with the server's outbox`);
    });

  program
    .command('verify')
    .description("records that the requester of a privacy request confirmed it is them (11 CCR §7060), e.g. by replying from the request's address")
    .argument('<id>', 'the privacy request id', requestIdArgument)
    .addOption(fromOption())
    .action(async (id: string, options: { from?: CourseState }) => {
      const taken = await take(id, { type: 'verify' }, options.from);
      io.out(taken.message ?? `request ${id} verified`);
    });

  program
    .command('extend')
    .description(`moves a privacy request's due date ${RETENTION.privacyResponseDays} days on, once, before it is due, and mails the requester the reason (11 CCR §7021(b))`)
    .argument('<id>', 'the privacy request id', requestIdArgument)
    .requiredOption('--reason <text>', 'why more time is needed: the requester is told; kept 24 months, so nothing that names the person', recordReason)
    .addOption(fromOption())
    .action(async (id: string, options: { reason: string; from?: CourseState }) => {
      const { dueAt } = await take(id, { type: 'extend', reason: options.reason }, options.from);
      io.out(`request ${id} now due ${dueAt!.toISOString().slice(0, 10)}; the notice with the reason goes out with the server's outbox`);
    });
}
