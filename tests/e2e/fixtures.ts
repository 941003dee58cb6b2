import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test as base, expect, type Page, type Request, type Response } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import postgres from 'postgres';
import { fillInviteAnswers } from '../../scripts/inviteForm';
import { postHogAnswer } from '../../scripts/posthogStandIn';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import {
  E2E_ANALYTICS_PGLITE_DIR,
  E2E_ANALYTICS_PORT,
  E2E_EVENTS_FILE,
  E2E_EVENTS_SECRET,
  E2E_EVENTS_URL,
  E2E_POSTHOG_HOST,
  E2E_SITE_MAIL_DIR,
  E2E_SITE_PGLITE_DIR,
  E2E_SITE_PORT,
  E2E_SMTP_DIR,
  E2E_WEBHOOK_FILE,
} from './constants';

/** The IP the intercepted lookup service answers in e2e runs (TEST-NET-3). */
export const E2E_CLIENT_IP = '203.0.113.9';


/**
 * Playwright's `test` with the public IP-lookup service (spec §7.2) answered locally, so that no run
 * depends on, or sends anything to, the internet; and with every Content-Security-Policy violation of
 * the page (Chromium reports each on the console) failing the test, whatever the test does.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.route('https://api.ipify.org/**', (route) => route.fulfill({ json: { ip: E2E_CLIENT_IP } }));
    await use(page);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  },
});

export { expect };

/** The POST of spec §7.1 that the next form submission makes, and the server's answer to it. */
export function nextSubmission(page: Page): Promise<Response> {
  return page.waitForResponse((response) => response.url().endsWith('/api/submissions') && response.request().method() === 'POST');
}

/** A row of the `submissions` table (server/db/schema.ts). */
export interface StoredRow {
  kind: SubmissionKind;
  email: string;
  body: SubmissionBody;
  due_at: Date | null;
  received_at: Date;
}

/**
 * The row the e2e server stored under `id`, read from PostgreSQL (`DATABASE_URL`, as CI runs).
 * Without `DATABASE_URL` the e2e servers run on PGlite, whose directory only its server may open:
 * then the test records that storage was checked over HTTP only (the 201 and its id), and CI fails
 * instead, so that the full check always runs there.
 */
export async function storedRow(id: string): Promise<StoredRow | null> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    if (process.env.CI) throw new Error('CI runs the e2e servers on PostgreSQL: set DATABASE_URL');
    test.info().annotations.push({ type: 'storage', description: 'PGlite: row not read back (set DATABASE_URL)' });
    return null;
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<StoredRow[]>`select kind, email, body, due_at, received_at from submissions where id = ${id}`;
    expect(rows, `a row with id ${id}`).toHaveLength(1);
    return rows[0]!;
  } finally {
    await sql.end();
  }
}

/**
 * An email address, and a mailbox, no other run used, to find this run's submission. Not a `+tag`: the
 * server counts mail per mailbox with the tag set aside (server/db/mailbox.ts), so a second run on the same
 * database (DATABASE_URL) within a day would find `invite@example.com`'s one acknowledgment used.
 */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
}

/** Fills the invite form's required fields and consent as a visitor would, by label. */
export async function fillInviteForm(page: Page, email: string) {
  const form = page.getByRole('form', { name: 'Request an invite' });
  // Filled at once, as a visitor does, while the form's code may still be loading or hydrating (after the
  // load event): what was typed and checked before then is kept (check() fails if the box did not stay
  // checked), and the submit button waits for the code.
  await fillInviteAnswers(form, {
    fullName: 'Ada Lovelace',
    workEmail: email,
    roleTitle: 'Staff engineer',
    companyName: 'Analytical Engines',
    useCaseDescription: 'A research agent that cites fresh sources.',
    estimatedMonthlyQueries: '50M',
    peakQPS: '1000 QPS',
  });
  return form;
}

/**
 * Opens the invite form, fills it as {@link fillInviteForm} does and sends it with its button.
 * @returns the pending POST of spec §7.1 that sending made, and the server's answer to it
 */
export async function sendInviteForm(page: Page, email: string): Promise<{ submission: Promise<Response> }> {
  await page.goto('/#invite');
  const form = await fillInviteForm(page, email);
  const submission = nextSubmission(page);
  await form.getByRole('button', { name: 'Request invite' }).click();
  return { submission };
}

/**
 * Runs `npm run requests -- <args>` (server/cli/main.ts) on the database of an e2e server: the `site`
 * server's (`DATABASE_URL` when set, else its PGlite directory) or the `analytics` server's (PGlite).
 * @returns what it printed
 * @throws the command's failure, with its exit code and output
 */
export async function teamCommand(args: string[], server: 'site' | 'analytics' = 'site'): Promise<string> {
  // the site server's settings that a command writing on its own (on PostgreSQL) needs: its decisions'
  // signed events; and its port, of which the enrollment links' origin is made
  const env =
    server === 'site'
      ? { PORT: String(E2E_SITE_PORT), SONDE_PGLITE_DIR: E2E_SITE_PGLITE_DIR, SONDE_EVENTS_WEBHOOK_URL: E2E_EVENTS_URL, SONDE_EVENTS_WEBHOOK_SECRET: E2E_EVENTS_SECRET }
      : { PORT: String(E2E_ANALYTICS_PORT), SONDE_PGLITE_DIR: E2E_ANALYTICS_PGLITE_DIR, DATABASE_URL: '' };
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', ...args], { env: { ...process.env, ...env } });
  return stdout;
}

/** A request as `npm run requests -- list --json` prints it (server/cli/requests.ts `RequestSummary`). */
export interface ListedRequest {
  id: string;
  kind: string;
  email: string;
  dueAt?: string;
  verification?: string;
  outcome?: string;
}

/** What `npm run requests -- list --json` prints for an e2e server's database. */
export async function requestsList(server: 'site' | 'analytics' = 'site'): Promise<ListedRequest[]> {
  return JSON.parse(await teamCommand(['list', '--json'], server)) as ListedRequest[];
}

/** The id of the one request stored under `email`, as `npm run requests -- list --json` shows it. */
export async function storedIdOf(email: string, server: 'site' | 'analytics' = 'site'): Promise<string> {
  const mine = (await requestsList(server)).filter((request) => request.email === email.toLowerCase());
  expect(mine, `one request stored under ${email}`).toHaveLength(1);
  return mine[0]!.id;
}

/**
 * Reads what `read` finds every 100 ms until it finds `count` things or `timeoutMs` has passed.
 * @returns the last reading (fewer than `count` when time ran out)
 */
async function poll<T>(read: () => Promise<T[]>, count: number, timeoutMs: number): Promise<T[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await read();
    if (found.length >= count || Date.now() > end) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The JSON lines a local receiver (tests/e2e/webhookReceiver.ts) wrote to `file` so far; none when it has written none. */
async function jsonLines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

/** The mail addressed to `address` in those of `files` (in their order) that are .eml files of `dir`, parsed. */
async function emlMailTo(dir: string, files: string[], address: string): Promise<Array<{ file: string; mail: ParsedMail }>> {
  const mine: Array<{ file: string; mail: ParsedMail }> = [];
  for (const file of files.filter((name) => name.endsWith('.eml'))) {
    const mail = await simpleParser(await readFile(join(dir, file)));
    if (mail.to && !Array.isArray(mail.to) && mail.to.value.some((to) => to.address?.toLowerCase() === address.toLowerCase())) mine.push({ file, mail });
  }
  return mine;
}

/** The signed decision events the local receiver got (headers and raw body), waiting up to `timeoutMs` for `count` about `requestId`. */
export async function decisionEvents(requestId: string, count = 1, timeoutMs = 10_000): Promise<Array<{ headers: Record<string, string>; body: string }>> {
  const read = async () =>
    (await jsonLines<{ headers: Record<string, string>; body: string }>(E2E_EVENTS_FILE)).filter(
      (event) => (JSON.parse(event.body) as { data: { requestId?: string } }).data.requestId === requestId,
    );
  return poll(read, count, timeoutMs);
}

/** The webhook deliveries the local receiver got, waiting up to `timeoutMs` for one about `submissionId`. */
export async function webhookDeliveries(submissionId: string, timeoutMs = 10_000): Promise<Array<{ delivery: string; body: { text: string; submissionId: string; kind: string } }>> {
  const read = async () =>
    (await jsonLines<{ delivery: string; body: { text: string; submissionId: string; kind: string } }>(E2E_WEBHOOK_FILE)).filter((d) => d.body.submissionId === submissionId);
  return poll(read, 1, timeoutMs);
}

/**
 * The mail the `site` e2e server wrote to `address` as .eml files (no SMTP server is set, as on a fresh
 * clone), parsed; waits up to `timeoutMs` for `count` of them.
 */
export async function mailTo(address: string, count = 1, timeoutMs = 10_000): Promise<Array<{ file: string; mail: ParsedMail }>> {
  const read = async () => emlMailTo(E2E_SITE_MAIL_DIR, await readdir(E2E_SITE_MAIL_DIR).catch(() => [] as string[]), address);
  return poll(read, count, timeoutMs);
}

/**
 * The mail the local SMTP server received for `address` (the `analytics` e2e server mails there), parsed,
 * oldest first; waits up to `timeoutMs` for `count` of them.
 */
export async function smtpMailTo(address: string, count = 1, timeoutMs = 15_000): Promise<ParsedMail[]> {
  const read = async () => (await emlMailTo(E2E_SMTP_DIR, (await readdir(E2E_SMTP_DIR).catch(() => [] as string[])).sort(), address)).map(({ mail }) => mail);
  return poll(read, count, timeoutMs);
}

/** Answers every PostHog request locally, as PostHog does (scripts/posthogStandIn.ts), and records it. */
export async function interceptPostHog(page: Page): Promise<Request[]> {
  const requests: Request[] = [];
  await page.route(`https://${new URL(E2E_POSTHOG_HOST).hostname}/**`, (route) => {
    requests.push(route.request());
    const body = JSON.stringify(postHogAnswer(new URL(route.request().url()).pathname));
    return route.fulfill({ status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body });
  });
  page.on('request', (request) => {
    if (new URL(request.url()).hostname === new URL(E2E_POSTHOG_HOST).hostname && !requests.includes(request)) requests.push(request);
  });
  return requests;
}
