import { Option, type Command } from 'commander';
import { REVIEW_STATES, type InviteDecision, type ReviewState } from '#machines/inviteReviewMachine';
import { addCohort, listCohorts } from '../db/cohorts.ts';
import { addNote, decideInvites, DecisionRefusedError } from '../db/decisions.ts';
import { auditCommandLine } from '../db/team.ts';
import { TEAM_COHORT_CAPACITY_MAX } from '../limits.ts';
import { ExitError, isoDate, oneLineName, oneLineText, requestIdArgument, UUID } from './arguments.ts';
import type { CommandContext } from './context.ts';
import { forTerminal, table } from './terminal.ts';

/** What each decision tells the team once done. */
const DONE_TEXT: Record<InviteDecision, string> = {
  accept: 'accepted',
  waitlist: 'waitlisted',
  decline: 'declined',
  spam: 'marked as spam (no mail; hidden from list)',
  reopen: 'reopened: received again',
};

/** A decision's options: `--cohort` (accept), `--reason` (decline), `--note`, `--by`, `--from`. */
interface DecisionOptions {
  cohort?: string;
  reason?: string;
  note?: string;
  by?: string;
  /** the review state the requests were seen in: decided only if each still is */
  from?: ReviewState;
}

/** A whole number of seats, 1 to {@link TEAM_COHORT_CAPACITY_MAX}. */
function capacity(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value) || Number(value) > TEAM_COHORT_CAPACITY_MAX) {
    throw new ExitError(`error: --capacity must be a whole number from 1 to ${TEAM_COHORT_CAPACITY_MAX}, not "${value}"`, 2);
  }
  return Number(value);
}

/**
 * The review's decisions on invite requests (machines/inviteReviewMachine.ts): `accept <id>… --cohort`,
 * `waitlist <id>…`, `decline <id>… [--reason]`, `spam <id>…`, `reopen <id>`, and `done <id>` (what
 * `waitlist` replaced); `note <id> "…"` on any request; `cohort add` and `cohort list`. A batch is all or
 * nothing: when the chart refuses any one request, nothing changes and each refusal is printed. A decision
 * is made on the state read under the rows' locks; with `--from <state>` (for a script acting on an earlier
 * `list`), only if every request is still in that state, else exit 1 naming who moved it and when.
 */
export function addDecisionCommands(program: Command, { io, withDb }: CommandContext): void {
  const decide = async (decision: InviteDecision, ids: string[], options: DecisionOptions) => {
    const bad = ids.find((id) => !UUID.test(id));
    if (bad !== undefined) throw new ExitError(`no request ${bad}`, 1);
    const by = options.by ?? io.user;
    const from = options.from;
    const at = io.now();
    const decided = await withDb('write', async (db) => {
      try {
        const moved = await decideInvites(db, {
          decision, ids, by, at, events: io.events ?? false,
          ...(from !== undefined ? { from: new Map(ids.map((id) => [id.toLowerCase(), from])) } : {}),
          ...(options.cohort !== undefined ? { cohort: options.cohort } : {}),
          ...(options.reason !== undefined ? { reason: options.reason } : {}),
          ...(options.note !== undefined ? { note: options.note } : {}),
        });
        // one audit entry per request decided, as the console writes them
        for (const { id } of moved) await auditCommandLine(db, { at, action: 'decision', requestId: id, name: decision });
        return moved;
      } catch (error) {
        if (error instanceof DecisionRefusedError) throw new ExitError(`nothing changed: ${error.message}`, 1);
        throw error;
      }
    });
    const mail = decision === 'spam' || decision === 'reopen' ? '' : '; the mail goes out with the server\'s outbox';
    io.out(`${decided.length === 1 ? `request ${decided[0]!.id}` : `${decided.length} requests`} ${DONE_TEXT[decision]} by ${by}${options.cohort ? ` into ${options.cohort}` : ''}${mail}`);
  };
  const byOption = (command: Command) => command.option('--by <name>', 'who decides (default: your user name)', oneLineName);
  /** `--by`, `--note`: the team's remark, kept in the timeline, never mailed; and `--from` */
  const decisionOptions = (command: Command) =>
    byOption(command)
      .option('--note <text>', "the team's remark on the decision, kept in the timeline (never mailed)", oneLineText)
      .addOption(
        new Option('--from <state>', 'decide only if each request is still in this review state (as an earlier list printed it); else nothing changes, exit 1').choices(REVIEW_STATES),
      );

  /** `<name> <id…>`: one decision on one or more invite requests, with its own options (`own`) before `--by` and `--note`. */
  const decisionCommand = (name: string, decision: InviteDecision, description: string, own: (command: Command) => Command = (command) => command) =>
    decisionOptions(own(program.command(name).description(description).argument('<id...>', 'the invite request ids'))).action(
      (ids: string[], options: DecisionOptions) => decide(decision, ids, options),
    );

  decisionCommand(
    'accept',
    'accept',
    'accepts invite requests into a cohort and mails each applicant its name and start date; credentials follow from the API\'s onboarding (the signed invite.accepted event)',
    (command) => command.requiredOption('--cohort <name>', 'the cohort (see cohort list)', oneLineText),
  );
  decisionCommand('waitlist', 'waitlist', 'puts invite requests on the waitlist and mails each applicant that the team will reach out when ready to onboard (rolling basis)');
  decisionCommand('done', 'waitlist', 'the same as waitlist (kept for the habit: done now puts an invite request on the waitlist and mails the applicant)');
  decisionCommand('decline', 'decline', 'declines invite requests and mails each applicant politely, with the reason when given', (command) =>
    command.option('--reason <text>', 'told to the applicant', oneLineText),
  );
  decisionCommand('spam', 'spam', 'marks invite requests as spam: no mail, hidden from list (see list --state spam); reopen takes it back');

  decisionOptions(
    program
      .command('reopen')
      .description('takes a declined or spam invite request back to received')
      .argument('<id>', 'the invite request id', requestIdArgument),
  ).action((id: string, options: DecisionOptions) => decide('reopen', [id], options));

  byOption(
    program
      .command('note')
      .description("adds the team's note to a request's timeline (show prints it), with who and when")
      .argument('<id>', 'the request id', requestIdArgument)
      .argument('<text>', 'the note', oneLineText),
  ).action(async (id: string, text: string, options: { by?: string }) => {
    const by = options.by ?? io.user;
    const at = io.now();
    const added =
      UUID.test(id) &&
      (await withDb('write', async (db) => {
        if (!(await addNote(db, { id, by, at, text }))) return false;
        await auditCommandLine(db, { at, action: 'note', requestId: id });
        return true;
      }));
    if (!added) throw new ExitError(`no request ${id}`, 1);
    io.out(`note added to request ${id} by ${by}`);
  });

  const cohort = program.command('cohort').description('the beta\'s cohorts: add one, list them');
  byOption(
    cohort
      .command('add')
      .description('creates a cohort, which accept places requests in')
      .argument('<name>', 'its name, e.g. "Cohort 3"', oneLineName)
      .requiredOption('--starts <date>', 'the day it starts onboarding (YYYY-MM-DD)', isoDate)
      .option('--capacity <n>', 'how many requests it takes (default: no limit)', capacity),
  ).action(async (name: string, options: { starts: string; capacity?: number; by?: string }) => {
    const audit = { memberId: null, via: 'cli', at: io.now() } as const;
    const added = await withDb('write', (db) => addCohort(db, { name, startsOn: options.starts, capacity: options.capacity ?? null, by: options.by ?? io.user, audit }));
    // names are unique whatever their case, spaces around them and their Unicode form (cohortNameOf)
    if (!added) throw new ExitError(`a cohort named "${name}" exists already`, 1);
    io.out(`cohort "${added.name}" added: starts ${added.startsOn}, ${added.capacity === null ? 'no capacity limit' : `${added.capacity} seats`}`);
  });
  cohort
    .command('list')
    .description('every cohort: name, start date, accepted and capacity')
    .action(async () => {
      const rows = await withDb('read', (db) => listCohorts(db));
      if (rows.length === 0) return io.out('no cohorts');
      io.out(table(['name', 'starts', 'accepted', 'capacity'], rows.map((c) => [c.name, c.startsOn, String(c.accepted), c.capacity === null ? 'no limit' : String(c.capacity)].map(forTerminal))));
    });
}
