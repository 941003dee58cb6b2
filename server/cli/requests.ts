// `npm run requests -- <command>`: the team's command line over the stored requests.
// It reads the same database as the server: `DATABASE_URL`, else PGlite in `SONDE_PGLITE_DIR`
// (default .data/pglite); while a server holds that directory, the server runs the command
// (server/cli/teamChannel.ts). Each command is one transaction.
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Table from 'cli-table3';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { stringify } from 'csv-stringify/sync';
import { and, desc, eq, gte, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { textProblem } from '#shared/text';
import { VERIFIED_REQUEST_TYPES, type SubmissionBody, type SubmissionKind } from '#shared/submission';
import { readConfig, type ServerConfig } from '../config.ts';
import { openDatabase, rowsOf, type Db } from '../db/database.ts';
import { RETENTION } from '#shared/policy';
import { notifications, privacyRecords, privacyVerifications, submissions, type PrivacyOutcome } from '../db/schema.ts';
import { removeMailFiles } from '../outbox/mail.ts';
import { deliveryIdsOf, eraseSubject, pendingMailTo, purgeExpired, storedView, subjectExport } from '../db/retention.ts';
import { historyOf } from '../db/privacyAnswers.ts';
import { askRunningServer } from './teamChannel.ts';

/** A connection for the command line, and how it reached the data. */
export interface TeamConnection {
  db: Db;
  /** `postgres` (DATABASE_URL), `directory` (PGlite opened here) or `server` (the server's own PGlite, running a command it was sent) */
  via: 'postgres' | 'server' | 'directory';
  close(): Promise<void>;
}

/**
 * Connects as the server's configuration says. With PGlite, the directory is opened here, under its
 * lock, which fails while a live server holds it (then the command goes to the server instead:
 * {@link runTeamCommandLine}). A directory that holds no PGlite database is refused, never created.
 * @throws Error naming the problem (and the directory) when the database cannot be reached, or
 *   "… is in use by another process" while a server or another command holds the PGlite directory
 */
export async function connectForTeam(config: ServerConfig): Promise<TeamConnection> {
  if ('url' in config.database) {
    const database = await openDatabase(config.database, { maxConnections: 1 });
    return { db: database.db, via: 'postgres', close: database.close };
  }
  const dir = config.database.pgliteDir;
  // A mistyped SONDE_PGLITE_DIR would otherwise become a new, empty database reporting "no requests".
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    throw new Error(`no database in ${dir} (SONDE_PGLITE_DIR): check the path, or start the server once to create it`);
  }
  const database = await openDatabase({ pgliteDir: dir }, { lockWaitMs: 0 });
  return { db: database.db, via: 'directory', close: database.close };
}

/** A request as the command line shows it: `list --json` and `export --format json` print these. */
export interface RequestSummary {
  id: string;
  kind: SubmissionKind;
  /** ISO 8601 */
  receivedAt: string;
  fullName: string;
  email: string;
  company: string;
  status: 'open' | 'done';
  /** privacy requests only: ISO 8601, received + 45 days */
  dueAt?: string;
  /** privacy requests still open: whole days until `dueAt`, negative when overdue */
  daysLeft?: number;
  handledAt?: string;
  handledBy?: string;
  note?: string;
  /** privacy requests: whether the requester's identity is confirmed (11 CCR §7060); `not needed` for an opt-out */
  verification?: 'verified' | 'unverified' | 'not needed';
  /** privacy requests answered with `respond`: complied, denied or partly */
  outcome?: PrivacyOutcome;
}

type Row = typeof submissions.$inferSelect;
type PrivacyRecord = typeof privacyRecords.$inferSelect;

/** Whether a privacy request's identity check is done, due, or not needed (only opt-out or other types). */
function verificationOf(record: PrivacyRecord): NonNullable<RequestSummary['verification']> {
  if (record.verifiedAt) return 'verified';
  return record.requestTypes.some((type) => (VERIFIED_REQUEST_TYPES as readonly string[]).includes(type)) ? 'unverified' : 'not needed';
}

const DAY_MS = 86_400_000;

function summary(row: Row, now: Date, record?: PrivacyRecord | null): RequestSummary {
  const status = row.handledAt ? 'done' : 'open';
  return {
    id: row.id,
    kind: row.kind,
    receivedAt: row.receivedAt.toISOString(),
    fullName: row.body.data.fullName,
    email: row.email,
    company: row.body.data.companyName,
    status,
    ...(row.dueAt ? { dueAt: row.dueAt.toISOString() } : {}),
    ...(row.dueAt && status === 'open' ? { daysLeft: Math.ceil((row.dueAt.getTime() - now.getTime()) / DAY_MS) } : {}),
    ...(row.handledAt ? { handledAt: row.handledAt.toISOString(), handledBy: row.handledBy ?? '', note: row.handledNote ?? '' } : {}),
    ...(record ? { verification: verificationOf(record) } : {}),
    ...(record?.outcome ? { outcome: record.outcome } : {}),
  };
}

function dueText(request: RequestSummary): string {
  if (!request.dueAt) return '';
  const due = request.dueAt.slice(0, 10);
  if (request.daysLeft === undefined) return `due ${due}`;
  if (request.daysLeft < 0) return `OVERDUE since ${due} (${-request.daysLeft} d)`;
  return `due ${due} (${request.daysLeft} d left)`;
}

/** An aligned table without borders, for a terminal. */
function table(head: string[], rows: string[][]): string {
  const blank = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ' };
  const t = new Table({ head, chars: blank, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 } });
  t.push(...rows);
  return t.toString();
}

/** Every field of the §7.1 body, in the order of spec §3, for the CSV export. */
const DATA_FIELDS: Array<keyof SubmissionBody['data']> = [
  'fullName', 'workEmail', 'roleTitle', 'companyName', 'websiteUrl', 'useCaseDescription', 'primaryWorkloads',
  'mustHaveCapabilities', 'estimatedMonthlyQueries', 'peakQPS', 'targetLatency', 'keyRegionsLanguages',
  'desiredStartDate', 'budgetRange', 'notes', 'consentGiven', 'submittedAt', 'clientIP', 'browserId', 'userAgent',
  'browserLanguage', 'timezone', 'screenResolution',
];

/**
 * The transaction-scoped advisory lock every team command that writes takes first (PostgreSQL
 * `pg_advisory_xact_lock`; any number taken by this app only): two such commands, from any number of
 * terminals, never interleave their checks and writes.
 */
export const TEAM_WRITE_LOCK_ID = 7_341_903;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Exit with a code and a one-line message (1: not found, 2: bad arguments). */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function kindOption() {
  return new Option('--kind <kind>', 'only invite or privacy requests').choices(['invite', 'privacy']);
}

/** A calendar date as `YYYY-MM-DD`: zod's check knows month lengths and leap years (`2026-02-30` is refused). */
const calendarDate = z.iso.date();

function isoDate(value: string): string {
  if (!calendarDate.safeParse(value).success) throw new InvalidArgumentError('expected a date as YYYY-MM-DD that exists.');
  return value;
}

// What a terminal must not receive raw: controls (ESC starts a command), format characters (U+202E
// reverses the text after it, U+200B hides), line and paragraph separators, private-use, unassigned
// code points and lone surrogates.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/gu;
const INVISIBLE_BUT_LINE_FEED = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/gu;
const hex = (unit: number) => unit.toString(16).toUpperCase().padStart(4, '0');

/** A cell of the `list` table: every invisible character shown as its code point, `\u{202E}`. */
export function forTerminal(text: string): string {
  return text.replace(INVISIBLE, (char) => `\\u{${hex(char.codePointAt(0)!)}}`);
}

/**
 * JSON for a terminal and for scripts alike: the same value (every invisible character is written as
 * the JSON escape `\\u202e`, which parses back to it), never a raw control or direction override. The
 * line feeds left are the indentation's; inside strings JSON.stringify has escaped them already.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(INVISIBLE_BUT_LINE_FEED, (char) =>
    Array.from({ length: char.length }, (_, i) => `\\u${hex(char.charCodeAt(i)).toLowerCase()}`).join(''),
  );
}


/** A one-line text the team writes into a record or a mail: the text rule of shared/text.ts, as for visitors. */
function oneLineText(value: string): string {
  const problem = textProblem(value, { required: true });
  if (problem) throw new InvalidArgumentError(`the text ${problem}.`);
  return value.normalize('NFC');
}

/**
 * Anything written like an email address, looked for in the NFKC form of a text (so a full-width `＠`
 * or a small `﹫` is an `@`), with or without spaces around the `@` (`ada @ example.com`).
 */
const EMAIL_LIKE = /[^\s@]+\s*@\s*[^\s@]+/u;

/**
 * A reason kept in the record of 11 CCR §7101, which outlives `erase`: one-line text without an email
 * address ({@link EMAIL_LIKE}), so that the record holds nothing that names the person.
 */
function recordReason(value: string): string {
  const text = oneLineText(value);
  if (EMAIL_LIKE.test(text.normalize('NFKC'))) throw new InvalidArgumentError('the reason is kept after the request is erased: leave out any email address.');
  return text;
}

function email(value: string): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(value.trim())) throw new InvalidArgumentError('expected an email address.');
  return value.trim().toLowerCase();
}

/**
 * The command line, writing to `out`. Commands: `list`, `show <id>`, `export`, `done <id>` (invite
 * requests), `verify <id>`, `respond <id>` and `extend <id>` (privacy requests), `subject --email`, `erase --email`,
 * `purge`. `respond` and `extend` write the record of 11 CCR §7101 and the requester's mail into the
 * outbox in one statement; the running server sends it.
 * @param io - `connect`: opens the database once a command runs; `now`: the clock for days left;
 *   `user`: who marks a request done by default
 * @throws {@link ExitError} (code 1) for an unknown id; commander's errors (code 2 after {@link runRequests}) for bad arguments
 */
export function requestsProgram(io: {
  connect: () => Promise<TeamConnection>;
  out: (text: string) => void;
  now: () => Date;
  user: string;
  /** `SONDE_MAIL_DIR`: where the server writes mail without SMTP; `erase` and `purge` delete the person's files there */
  mailDir?: string;
}): Command {
  /**
   * Runs one command's reads and writes as one transaction. `read`: one snapshot (repeatable read, read
   * only), so every row it prints is of one moment. `write`: the team's write lock first, so two commands
   * that change requests run one after the other, and every row it decides on is locked (`for update`)
   * until it commits, so a visitor's verification or the outbox cannot change it in between. On PGlite the
   * transaction also holds PGlite's transaction mutex: no other statement of the server runs inside it.
   */
  const withDb = async <T>(mode: 'read' | 'write', work: (db: Db) => Promise<T>): Promise<T> => {
    const connection = await io.connect();
    try {
      return await connection.db.transaction(
        async (tx) => {
          if (mode === 'write') await tx.execute(sql`select 1 from pg_advisory_xact_lock(${TEAM_WRITE_LOCK_ID}::bigint)`);
          return work(tx);
        },
        mode === 'read' ? { isolationLevel: 'repeatable read', accessMode: 'read only' } : { isolationLevel: 'read committed' },
      );
    } finally {
      await connection.close();
    }
  };
  /** The request to change, locked until the command commits; exit 1 when there is none. */
  const findOne = async (db: Db, id: string): Promise<Row> => {
    const [row] = UUID.test(id) ? await db.select().from(submissions).where(eq(submissions.id, id)).for('update') : [];
    if (!row) throw new ExitError(`no request ${id}`, 1);
    return row;
  };

  const program = new Command('requests')
    .description("Sonde's stored invite and privacy requests: read, export, and mark them handled.")
    .showHelpAfterError(false);

  program
    .command('list')
    .description('newest first: id, received, kind, name, email, company, status; privacy requests with their due date')
    .addOption(kindOption())
    .addOption(new Option('--status <status>', 'only open or done requests').choices(['open', 'done']))
    .option('--since <date>', 'only requests received on or after this date (YYYY-MM-DD, UTC)', isoDate)
    .option('--json', 'one JSON array, for scripts')
    .action(async (options: { kind?: SubmissionKind; status?: 'open' | 'done'; since?: string; json?: boolean }) => {
      const filters: SQL[] = [];
      if (options.kind) filters.push(eq(submissions.kind, options.kind));
      if (options.status) filters.push(options.status === 'open' ? isNull(submissions.handledAt) : isNotNull(submissions.handledAt));
      if (options.since) filters.push(gte(submissions.receivedAt, new Date(`${options.since}T00:00:00Z`)));
      const rows = await withDb('read', (db) =>
        db
          .select()
          .from(submissions)
          .leftJoin(privacyRecords, eq(privacyRecords.id, submissions.id))
          .where(and(...filters))
          .orderBy(desc(submissions.receivedAt)),
      );
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
      const { row, record } = await withDb('read', async (db) => {
        const [found] = UUID.test(id) ? await db.select().from(submissions).where(eq(submissions.id, id)) : [];
        const [kept] = UUID.test(id) ? await db.select().from(privacyRecords).where(eq(privacyRecords.id, id)) : [];
        return { row: found, record: kept };
      });
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
      const rows = await withDb('read', (db) =>
        db.select().from(submissions).where(options.kind ? eq(submissions.kind, options.kind) : undefined).orderBy(desc(submissions.receivedAt)),
      );
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
        await db
          .update(submissions)
          .set({ handledAt: io.now(), handledBy: by, handledNote: options.note ?? null })
          .where(and(eq(submissions.id, id), isNull(submissions.handledAt)));
        return `request ${id} marked done by ${by}`;
      });
      io.out(message);
    });

  /** A privacy request and its record; exit 1 when there is none, 2 when the id is an invite request's. */
  const findPrivacy = async (db: Db, id: string): Promise<{ row: Row; record: PrivacyRecord }> => {
    const row = await findOne(db, id);
    if (row.kind !== 'privacy') throw new ExitError(`request ${id} is an invite request: mark it handled with done`, 2);
    const [record] = await db.select().from(privacyRecords).where(eq(privacyRecords.id, id)).for('update');
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
      if (options.outcome !== 'complied' && !options.reason) {
        throw new ExitError(`error: --reason is required when the outcome is ${options.outcome}: the requester is told why (11 CCR §7022, §7024)`, 2);
      }
      const by = options.by ?? io.user;
      const message = await withDb('write', async (db) => {
        const { record } = await findPrivacy(db, id);
        if (record.respondedAt) throw new ExitError(`request ${id} was already answered on ${record.respondedAt.toISOString()} (${record.outcome ?? 'no outcome'})`, 1);
        if (options.attachSubject && !record.verifiedAt) {
          throw new ExitError(`request ${id} is not verified: its requester's data is not sent before they confirm it is them (11 CCR §7060)`, 1);
        }
        // What the confirmation promised: nothing is done on an unconfirmed request to know, delete, correct
        // or port. Denied (unverifiable, §7062) or partly (e.g. an opt-out done, the rest denied) stay open.
        if (options.outcome === 'complied' && verificationOf(record) === 'unverified') {
          throw new ExitError(
            `request ${id} is not verified: a request to know, delete, correct or port is not carried out before its requester confirms it is them (11 CCR §7060). Record how they confirmed with verify ${id}, or answer --outcome denied (or partly) with the reason`,
            1,
          );
        }
        const now = io.now();
        // One statement: the record, the request marked handled, and the outcome mail in the outbox.
        const result = await db.execute(sql`
          with answered as (
            update ${privacyRecords} set responded_at = ${now.toISOString()}::timestamptz, outcome = ${options.outcome},
              outcome_reason = ${options.reason ?? null}, responded_by = ${by}
            where id = ${id} and responded_at is null
            returning id
          ),
          spent as (
            delete from ${privacyVerifications} where request_id in (select id from answered)
          ),
          handled as (
            update ${submissions} set handled_at = ${now.toISOString()}::timestamptz, handled_by = ${by},
              handled_note = ${`${options.outcome}${options.reason ? `: ${options.reason}` : ''}`}
            where id in (select id from answered)
          )
          insert into ${notifications} (submission_id, channel, message, attach_subject)
          select id, 'mail', 'privacy-outcome', ${options.attachSubject ?? false} from answered
          returning submission_id`);
        // another respond may have answered it between the look-up and this statement
        if (rowsOf(result).length === 0) throw new ExitError(`request ${id} was answered meanwhile: see show ${id}`, 1);
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
        if (record.respondedAt) {
          throw new ExitError(`request ${id} was already answered on ${record.respondedAt.toISOString()} (${record.outcome ?? 'no outcome'}): there is nothing left to verify it for`, 1);
        }
        if (io.now() >= record.dueAt) {
          throw new ExitError(`request ${id} was due on ${record.dueAt.toISOString().slice(0, 10)}: verify records an identity check before the due date; answer it with respond`, 1);
        }
        if (record.verifiedAt) return `request ${id} was already verified on ${record.verifiedAt.toISOString()}`;
        const now = io.now().toISOString();
        // One statement: the record, and the links of its confirmation, which now say it is already confirmed.
        const result = await db.execute(sql`
          with verified as (
            update ${privacyRecords} set verified_at = ${now}::timestamptz, verified_by = 'team'
            where id = ${id} and verified_at is null and responded_at is null and due_at > ${now}::timestamptz
            returning id
          ),
          used as (
            update ${privacyVerifications} set used_at = ${now}::timestamptz
            where request_id in (select id from verified) and used_at is null
          )
          select id from verified`);
        if (rowsOf(result).length === 0) return `request ${id} was verified meanwhile: see show ${id}`;
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
        if (record.extendedAt) throw new ExitError(`request ${id} was already extended on ${record.extendedAt.toISOString()}: the regulations allow one extension`, 1);
        if (record.respondedAt) throw new ExitError(`request ${id} was already answered`, 1);
        const now = io.now();
        if (now > record.dueAt) throw new ExitError(`request ${id} was due on ${record.dueAt.toISOString().slice(0, 10)}: an extension must be noticed before then`, 1);
        const result = await db.execute(sql`
          with extended as (
            update ${privacyRecords} set due_at = due_at + make_interval(days => ${RETENTION.privacyResponseDays}::int),
              extended_at = ${now.toISOString()}::timestamptz, extension_reason = ${options.reason}
            where id = ${id} and extended_at is null and responded_at is null
            returning id, due_at
          ),
          moved as (
            update ${submissions} s set due_at = e.due_at from extended e where s.id = e.id
          ),
          notice as (
            insert into ${notifications} (submission_id, channel, message)
            select id, 'mail', 'privacy-extension' from extended
          )
          select due_at from extended`);
        const [row] = rowsOf<{ due_at: Date | string }>(result);
        if (!row) throw new ExitError(`request ${id} was extended or answered meanwhile: see show ${id}`, 1);
        return `request ${id} now due ${new Date(row.due_at).toISOString().slice(0, 10)}; the notice with the reason goes out with the server's outbox`;
      });
      io.out(message);
    });

  program
    .command('subject')
    .description('every stored request and notification of one person, as JSON: the answer to an Access/Know or Data Portability request')
    .requiredOption('--email <email>', 'the email the requests were sent with (any case, +tag or Gmail spelling: one mailbox)', email)
    .action(async (options: { email: string }) => {
      io.out(jsonForTerminal(await withDb('read', (db) => subjectExport(db, options.email))));
    });

  program
    .command('erase')
    .description('deletes every stored request of one person, keeping only an erasure record (hashed email, time, count): a Delete request')
    .requiredOption('--email <email>', 'the email the requests were sent with (any case, +tag or Gmail spelling: one mailbox)', email)
    .option('--force', 'erase even though mail to this person is still waiting to be sent (it is then never sent)')
    .action(async (options: { email: string; force?: boolean }) => {
      const { count, deliveries } = await withDb('write', async (db) => {
        const pending = await pendingMailTo(db, options.email);
        if (pending > 0 && !options.force) {
          throw new ExitError(
            `${pending} mail(s) to ${options.email} not sent yet (the answer to their request, say): erase once the server has sent them, or add --force`,
            1,
          );
        }
        return { deliveries: await deliveryIdsOf(db, options.email), count: await eraseSubject(db, options.email) };
      });
      // the .eml copies of their mail, if any: once the rows are gone for good (committed)
      if (io.mailDir) await removeMailFiles(io.mailDir, deliveries);
      io.out(`erased ${count} request${count === 1 ? '' : 's'} of ${options.email}; kept an erasure record (SHA-256 of the email, time, count)`);
    });

  program
    .command('purge')
    .description(
      `deletes what the privacy policy's retention periods have passed: invite requests after ${RETENTION.applicationMonths} months, privacy requests after ${RETENTION.privacyRequestRecordMonths}`,
    )
    .action(async () => {
      const gone = await withDb('write', (db) => purgeExpired(db, io.now()));
      if (io.mailDir) await removeMailFiles(io.mailDir, gone.deliveryIds);
      io.out(
        `purged ${gone.invite} invite request(s) older than ${RETENTION.applicationMonths} months, ` +
          `${gone.privacy} privacy request(s) and ${gone.records} privacy record(s) older than ${RETENTION.privacyRequestRecordMonths} months, ` +
          `${gone.verificationLinks} verification link(s) of requests answered or past due`,
      );
    });

  return program;
}

/**
 * Runs the command line on `argv` (the arguments after `requests`).
 * @returns the exit code: 0, 1 for an unknown id or an unreachable database, 2 for bad arguments
 */
export async function runRequests(
  argv: string[],
  io: {
    connect: () => Promise<TeamConnection>;
    out: (text: string) => void;
    err: (text: string) => void;
    now?: () => Date;
    user?: string;
    mailDir?: string;
  },
): Promise<number> {
  const program = requestsProgram({
    connect: io.connect,
    out: io.out,
    now: io.now ?? (() => new Date()),
    user: io.user ?? userInfo().username,
    ...(io.mailDir ? { mailDir: io.mailDir } : {}),
  });
  program.exitOverride();
  program.configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) });
  for (const command of program.commands) {
    command.exitOverride();
    command.configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) });
  }
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

/**
 * The command line as `npm run requests` runs it. With PGlite, while a server holds the directory and
 * answers on its team channel (server/cli/teamChannel.ts), the server runs the command and this prints its
 * answer; otherwise the command runs here (PostgreSQL, or PGlite's directory opened under its lock).
 * @returns the exit code, as {@link runRequests}; 1 when the server was reached but did not answer
 */
export async function runTeamCommandLine(
  config: ServerConfig,
  argv: string[],
  io: { out: (text: string) => void; err: (text: string) => void; user?: string },
): Promise<number> {
  const user = io.user ?? userInfo().username;
  if ('pgliteDir' in config.database) {
    let answer;
    try {
      answer = await askRunningServer(config.database.pgliteDir, { argv, user });
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
  return runRequests(argv, { connect: () => connectForTeam(config), mailDir: config.mail.emlDir, user, out: io.out, err: io.err });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let config: ServerConfig;
  try {
    config = readConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const code = await runTeamCommandLine(config, process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
  process.exit(code);
}
