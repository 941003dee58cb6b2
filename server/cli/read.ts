import { Option, type Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { historyOf } from '../db/privacyAnswers.ts';
import { storedView } from '../db/retention.ts';
import { exportRequests, findRequest, listRequests } from '../db/submissions.ts';
import { ExitError, isoDate, kindOption, UUID } from './arguments.ts';
import type { CommandContext } from './context.ts';
import { dueText, summary } from './summary.ts';
import { forTerminal, jsonForTerminal, table } from './terminal.ts';

/** Every field of the §7.1 body, in the order of spec §3, for the CSV export. */
const DATA_FIELDS: Array<keyof SubmissionBody['data']> = [
  'fullName', 'workEmail', 'roleTitle', 'companyName', 'websiteUrl', 'useCaseDescription', 'primaryWorkloads',
  'mustHaveCapabilities', 'estimatedMonthlyQueries', 'peakQPS', 'targetLatency', 'keyRegionsLanguages',
  'desiredStartDate', 'budgetRange', 'notes', 'consentGiven', 'submittedAt', 'clientIP', 'browserId', 'userAgent',
  'browserLanguage', 'timezone', 'screenResolution',
];

/**
 * `list`, `show <id>` and `export`: the team's reads, each one snapshot.
 * @param program - the `requests` command to add them to
 */
export function addReadCommands(program: Command, { io, withDb }: CommandContext): void {
  program
    .command('list')
    .description('newest first: id, received, kind, name, email, company, status; privacy requests with their due date')
    .addOption(kindOption())
    .addOption(new Option('--status <status>', 'only open or done requests').choices(['open', 'done']))
    .option('--since <date>', 'only requests received on or after this date (YYYY-MM-DD, UTC)', isoDate)
    .option('--json', 'one JSON array, for scripts')
    .action(async (options: { kind?: SubmissionKind; status?: 'open' | 'done'; since?: string; json?: boolean }) => {
      const filters = {
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.status ? { status: options.status } : {}),
        ...(options.since ? { since: new Date(`${options.since}T00:00:00Z`) } : {}),
      };
      const rows = await withDb('read', (db) => listRequests(db, filters));
      const requests = rows.map((row) => summary(row.submissions, io.now(), row.privacy_records));
      if (options.json) return io.out(jsonForTerminal(requests));
      if (requests.length === 0) return io.out('no requests');
      io.out(
        table(
          ['id', 'received (UTC)', 'kind', 'name', 'email', 'company', 'status', 'identity', 'due'],
          requests.map((r) =>
            [r.id, r.receivedAt.slice(0, 16).replace('T', ' '), r.kind, r.fullName, r.email, r.company, r.outcome ?? r.status, r.verification ?? '', dueText(r)].map(forTerminal),
          ),
        ),
      );
    });

  program
    .command('show')
    .description('everything stored for one request, metadata included, as JSON; a privacy request with its history (kept after erase)')
    .argument('<id>', 'the request id (a UUID, as list prints it)')
    .action(async (id: string) => {
      const { row, record } = await withDb('read', async (db) => (UUID.test(id) ? findRequest(db, id) : { row: undefined, record: undefined }));
      if (!row && !record) throw new ExitError(`no request ${id}`, 1);
      if (!row) {
        // erased: only the record of 11 CCR §7101 is left, which holds nothing personal
        return io.out(jsonForTerminal({ id, kind: 'privacy', erased: true, dueAt: record!.dueAt.toISOString(), history: historyOf(record!) }));
      }
      io.out(jsonForTerminal({ ...summary(row, io.now(), record), ...(record ? { history: historyOf(record) } : {}), stored: storedView(row) }));
    });

  program
    .command('export')
    .description('every request with every field, to stdout, for a spreadsheet or a CRM')
    .addOption(new Option('--format <format>', 'csv or json').choices(['csv', 'json']).default('csv'))
    .addOption(kindOption())
    .action(async (options: { format: 'csv' | 'json'; kind?: SubmissionKind }) => {
      const rows = await withDb('read', (db) => exportRequests(db, options.kind));
      if (options.format === 'json') {
        return io.out(jsonForTerminal(rows.map((row) => ({ ...summary(row, io.now()), data: row.body.data }))));
      }
      const columns = ['id', 'kind', 'receivedAt', 'status', 'dueAt', 'handledAt', 'handledBy', 'note', ...DATA_FIELDS];
      const records = rows.map((row) => {
        const s = summary(row, io.now());
        const data = row.body.data as unknown as Record<string, unknown>;
        return [s.id, s.kind, s.receivedAt, s.status, s.dueAt ?? '', s.handledAt ?? '', s.handledBy ?? '', s.note ?? '',
          ...DATA_FIELDS.map((field) => {
            const value = data[field];
            return Array.isArray(value) ? value.join('; ') : value === undefined || value === null ? '' : String(value);
          })];
      });
      // escape_formulas: a cell starting with =, +, -, @, tab or CR gets a leading ' (OWASP, CWE-1236),
      // so a spreadsheet shows it as text instead of running it as a formula.
      io.out(stringify(records, { header: true, columns, bom: false, escape_formulas: true }).trimEnd());
    });
}
