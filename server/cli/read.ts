import { Option, type Command } from 'commander';
import type { SubmissionKind } from '#shared/submission';
import { historyOf } from '../db/privacyAnswers.ts';
import { storedView } from '../db/retention.ts';
import { REVIEW_STATES } from '#machines/inviteReviewMachine';
import { findQueueEntry, listRequests, otherRequestsOf } from '../db/queue.ts';
import type { ReviewState } from '../db/schema.ts';
import { requestsCsv } from '../db/requestsCsv.ts';
import { exportRequests, findRequest } from '../db/submissions.ts';
import { timelineOf } from '../db/timeline.ts';
import { ExitError, isoDate, kindOption, requestIdArgument, UUID } from './arguments.ts';
import type { CommandContext } from './context.ts';
import { dueText, statusText, summary } from '../db/summary.ts';
import { forTerminal, jsonForTerminal, table } from './terminal.ts';

/**
 * `list`, `show <id>` and `export`: the team's reads, each one snapshot.
 * @param program - the `requests` command to add them to
 */
export function addReadCommands(program: Command, { io, withDb }: CommandContext): void {
  program
    .command('list')
    .description('newest first: id, received, kind, name, email, company, status; privacy requests with their due date')
    .addOption(kindOption())
    .addOption(new Option('--status <status>', 'only open (undecided) or done (decided or answered) requests').choices(['open', 'done']))
    .addOption(new Option('--state <state>', 'only invite requests in this state of the review (spam is listed only so)').choices(REVIEW_STATES))
    .option('--cohort <name>', 'only invite requests accepted into this cohort')
    .option('--since <date>', 'only requests received on or after this date (YYYY-MM-DD, UTC)', isoDate)
    .option('--json', 'one JSON array, for scripts')
    .action(async (options: { kind?: SubmissionKind; status?: 'open' | 'done'; state?: ReviewState; cohort?: string; since?: string; json?: boolean }) => {
      const filters = {
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.status ? { status: options.status } : {}),
        ...(options.state ? { state: options.state } : {}),
        ...(options.cohort !== undefined ? { cohort: options.cohort } : {}),
        ...(options.since ? { since: new Date(`${options.since}T00:00:00Z`) } : {}),
      };
      const rows = await withDb('read', (db) => listRequests(db, filters));
      const requests = rows.map((row) => summary(row.submissions, io.now(), row.privacy_records, row));
      if (options.json) return io.out(jsonForTerminal(requests));
      if (requests.length === 0) return io.out('no requests');
      io.out(
        table(
          ['id', 'received (UTC)', 'kind', 'name', 'email', 'company', 'status', 'identity', 'due'],
          requests.map((r) =>
            [r.id, r.receivedAt.slice(0, 16).replace('T', ' '), r.kind, r.fullName, r.email, r.company, statusText(r), r.verification ?? '', dueText(r)].map(forTerminal),
          ),
        ),
      );
    });

  program
    .command('show')
    .description(
      'everything stored for one request, metadata included, as JSON, with its timeline (received, each mail and its delivery, decisions, notes); a privacy request with its history (kept after erase); ' +
        'the other requests from its address, and apart the other spellings of its mailbox (+tag, Gmail dots), which may be the same person or not',
    )
    .argument('<id>', 'the request id (a UUID, as list prints it)', requestIdArgument)
    .action(async (id: string) => {
      const found = await withDb('read', async (db) => {
        if (!UUID.test(id)) return undefined;
        const entry = await findQueueEntry(db, id);
        if (entry) return { entry, timeline: await timelineOf(db, { id, receivedAt: entry.submissions.receivedAt }), others: await otherRequestsOf(db, entry.submissions) };
        const { record } = await findRequest(db, id);
        return record ? { entry: undefined, record } : undefined;
      });
      if (!found) throw new ExitError(`no request ${id}`, 1);
      if (!found.entry) {
        // erased: only the record of 11 CCR §7101 is left, which holds nothing personal
        return io.out(jsonForTerminal({ id, kind: 'privacy', erased: true, dueAt: found.record.dueAt.toISOString(), history: historyOf(found.record!) }));
      }
      const { submissions: row, privacy_records: record } = found.entry;
      const sibling = ({ id, kind, receivedAt, state, email }: (typeof found.others)[number]) => ({ id, kind, receivedAt: receivedAt.toISOString(), state, email });
      io.out(
        jsonForTerminal({
          ...summary(row, io.now(), record, found.entry),
          ...(record ? { history: historyOf(record) } : {}),
          timeline: found.timeline,
          // a person's data is matched to the address that asked (11 CCR §7060–§7062): the requests of
          // this address are in its `subject` and `erase`; another spelling of its mailbox may be someone
          // else's, and is acted on only by its own id, after its own verification
          otherRequestsFromThisAddress: found.others.filter((other) => other.sameAddress).map(sibling),
          otherSpellingsMaybeSamePerson: found.others.filter((other) => !other.sameAddress).map(sibling),
          stored: storedView(row),
        }),
      );
    });

  program
    .command('export')
    .description('every request with every field, to stdout, for a spreadsheet or a CRM')
    .addOption(new Option('--format <format>', 'csv or json').choices(['csv', 'json']).default('csv'))
    .addOption(kindOption())
    .action(async (options: { format: 'csv' | 'json'; kind?: SubmissionKind }) => {
      const rows = await withDb('read', (db) => exportRequests(db, options.kind));
      if (options.format === 'json') {
        return io.out(jsonForTerminal(rows.map(({ row, cohort }) => ({ ...summary(row, io.now(), null, { cohort, duplicateOf: null }), data: row.body.data }))));
      }
      io.out(requestsCsv(rows, io.now()).trimEnd());
    });
}
