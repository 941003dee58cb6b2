import { stringify } from 'csv-stringify/sync';
import type { SubmissionBody } from '#shared/submission';
import { summary, type Row } from './summary.ts';

// The one CSV of the stored requests, for a spreadsheet or a CRM: the command line's `export --format csv`
// (server/cli/read.ts) and the console's `GET /api/team/requests.csv` (server/http/team/export.ts).

/** Every field of the §7.1 body, in the order of spec §3, for the CSV export. */
const DATA_FIELDS: Array<keyof SubmissionBody['data']> = [
  'fullName', 'workEmail', 'roleTitle', 'companyName', 'websiteUrl', 'useCaseDescription', 'primaryWorkloads',
  'mustHaveCapabilities', 'estimatedMonthlyQueries', 'peakQPS', 'targetLatency', 'keyRegionsLanguages',
  'desiredStartDate', 'budgetRange', 'notes', 'consentGiven', 'submittedAt', 'clientIP', 'browserId', 'userAgent',
  'browserLanguage', 'timezone', 'screenResolution',
];

/** The CSV's columns, in order: the request's summary, then every field as submitted. */
export const CSV_COLUMNS = ['id', 'kind', 'receivedAt', 'status', 'state', 'cohort', 'dueAt', 'handledAt', 'handledBy', 'note', ...DATA_FIELDS];

/**
 * Requests as CSV (RFC 4180, CRLF-free: lines end with `\n`), one line each, lists joined with `; `.
 * A cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'` (csv-stringify's `escape_formulas`;
 * OWASP "CSV Injection", CWE-1236), so a spreadsheet shows it as text instead of running it as a formula.
 * @param rows - each request's row and, when accepted, its cohort's name
 * @param now - the clock of the summary (days left)
 * @param options - `header`: start with the line of {@link CSV_COLUMNS} (default true), even for no rows
 * @returns the lines, each ending with `\n`; `''` for no rows without a header
 */
export function requestsCsv(rows: ReadonlyArray<{ row: Row; cohort: string | null }>, now: Date, options: { header?: boolean } = {}): string {
  const header = options.header ?? true;
  const records = rows.map(({ row, cohort }) => {
    const s = summary(row, now);
    const data = row.body.data as unknown as Record<string, unknown>;
    return [s.id, s.kind, s.receivedAt, s.status, s.state ?? '', cohort ?? '', s.dueAt ?? '', s.handledAt ?? '', s.handledBy ?? '', s.note ?? '',
      ...DATA_FIELDS.map((field) => {
        const value = data[field];
        return Array.isArray(value) ? value.join('; ') : value === undefined || value === null ? '' : String(value);
      })];
  });
  return stringify(records, { header, columns: CSV_COLUMNS, bom: false, escape_formulas: true });
}
