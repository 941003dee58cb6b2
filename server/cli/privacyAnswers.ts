import { Option, type Command } from 'commander';
import { RETENTION } from '#shared/policy';
import type { Db } from '../db/database.ts';
import { extendDueDate, lockPrivacyRecord, recordResponse, recordVerifiedByTeam } from '../db/privacyAnswers.ts';
import { privacyCourseOf, refusalOf, unfoundedResponse, type CourseRefusal } from '../db/privacyCourse.ts';
import type { PrivacyOutcome } from '../db/schema.ts';
import { lockRequest } from '../db/submissions.ts';
import { ExitError, oneLineText, recordReason, UUID } from './arguments.ts';
import type { CommandContext } from './context.ts';
import type { PrivacyRecord, Row } from '../db/summary.ts';

/** A refusal of the course as the command line ends on it: exit 2 for a bad argument, else 1. */
function exitOn(refusal: CourseRefusal): ExitError {
  return new ExitError(refusal.message, refusal.rule === 'noBasis' || refusal.rule === 'noReason' ? 2 : 1);
}

/** The request to change, locked until the command commits; exit 1 when there is none. */
async function findOne(db: Db, id: string): Promise<Row> {
  const row = UUID.test(id) ? await lockRequest(db, id) : undefined;
  if (!row) throw new ExitError(`no request ${id}`, 1);
  return row;
}

/**
 * `respond <id>`, `verify <id>` and `extend <id>`: the team's answers to a privacy request. Each asks the
 * course's chart (machines/privacyCourseMachine.ts, through server/db/privacyCourse.ts) whether the step
 * is possible from the stored record, locked, at `io.now()`, and prints its refusal when it is not.
 * `respond` and `extend` write the record of 11 CCR §7101 and the requester's mail into the outbox in
 * one statement; the running server sends it.
 */
export function addPrivacyCommands(program: Command, { io, withDb }: CommandContext): void {
  /** A privacy request and its record; exit 1 when there is none, 2 when the id is an invite request's. */
  const findPrivacy = async (db: Db, id: string): Promise<{ row: Row; record: PrivacyRecord }> => {
    const row = await findOne(db, id);
    if (row.kind !== 'privacy') throw new ExitError(`request ${id} is an invite request: mark it handled with done`, 2);
    const record = await lockPrivacyRecord(db, id);
    if (!record) throw new ExitError(`request ${id} has no privacy record`, 1);
    return { row, record };
  };

  program
    .command('respond')
    .description('records the response to a privacy request (11 CCR §7101, §7022, §7024) and mails the requester its outcome')
    .argument('<id>', 'the privacy request id')
    .addOption(new Option('--outcome <outcome>', 'what was done').choices(['complied', 'denied', 'partly']).makeOptionMandatory())
    .option('--reason <text>', 'the basis of a denial or a partial answer (required then), or a note to the requester; kept 24 months, so nothing that names the person', recordReason)
    .option('--attach-subject', "attach everything stored about the requester as JSON (the answer to Access/Know or Data Portability); refused for an unverified request")
    .option('--by <name>', 'who responded (default: your user name)', oneLineText)
    .action(async (id: string, options: { outcome: PrivacyOutcome; reason?: string; attachSubject?: boolean; by?: string }) => {
      const unfounded = unfoundedResponse(options);
      if (unfounded) throw exitOn(unfounded);
      const by = options.by ?? io.user;
      const message = await withDb('write', async (db) => {
        const { record } = await findPrivacy(db, id);
        const now = io.now();
        // What the confirmation promised: nothing is done on an unconfirmed request to know, delete, correct
        // or port (the chart's `unverified`). Denied (unverifiable, §7062) or partly stay open.
        const event = { type: 'respond', outcome: options.outcome, reason: options.reason, attachSubject: options.attachSubject ?? false, by, at: now.toISOString() } as const;
        const refusal = refusalOf(id, privacyCourseOf(record, now), event);
        if (refusal) throw exitOn(refusal);
        // One statement: the record, the request marked handled, and the outcome mail in the outbox.
        const answered = await recordResponse(db, id, { at: now, outcome: options.outcome, ...(options.reason ? { reason: options.reason } : {}), by, attachSubject: options.attachSubject ?? false, events: io.events ?? false });
        // another respond may have answered it between the look-up and this statement
        if (!answered) throw new ExitError(`request ${id} was answered meanwhile: see show ${id}`, 1);
        return `request ${id} answered (${options.outcome}) by ${by}; the outcome mail${options.attachSubject ? ', with their data attached,' : ''} goes out with the server's outbox`;
      });
      io.out(message);
    });

  program
    .command('verify')
    .description("records that the requester of a privacy request confirmed it is them (11 CCR §7060), e.g. by replying from the request's address")
    .argument('<id>', 'the privacy request id')
    .action(async (id: string) => {
      const message = await withDb('write', async (db) => {
        const { record } = await findPrivacy(db, id);
        // An identity check is a step before the response, within the time the law gives (§7021(b)).
        const now = io.now();
        const refusal = refusalOf(id, privacyCourseOf(record, now), { type: 'verify', by: 'team', at: now.toISOString() });
        if (refusal?.rule === 'verifiedAlready') return refusal.message;
        if (refusal) throw exitOn(refusal);
        // One statement: the record, and the links of its confirmation, which now say it is already confirmed.
        const verified = await recordVerifiedByTeam(db, id, now);
        if (!verified) return `request ${id} was verified meanwhile: see show ${id}`;
        return `request ${id} verified`;
      });
      io.out(message);
    });

  program
    .command('extend')
    .description(`moves a privacy request's due date ${RETENTION.privacyResponseDays} days on, once, before it is due, and mails the requester the reason (11 CCR §7021(b))`)
    .argument('<id>', 'the privacy request id')
    .requiredOption('--reason <text>', 'why more time is needed: the requester is told; kept 24 months, so nothing that names the person', recordReason)
    .action(async (id: string, options: { reason: string }) => {
      const message = await withDb('write', async (db) => {
        const { record } = await findPrivacy(db, id);
        const now = io.now();
        const refusal = refusalOf(id, privacyCourseOf(record, now), { type: 'extend', reason: options.reason, at: now.toISOString() });
        if (refusal) throw exitOn(refusal);
        const dueAt = await extendDueDate(db, id, { at: now, reason: options.reason });
        if (!dueAt) throw new ExitError(`request ${id} was extended or answered meanwhile: see show ${id}`, 1);
        return `request ${id} now due ${dueAt.toISOString().slice(0, 10)}; the notice with the reason goes out with the server's outbox`;
      });
      io.out(message);
    });
}
