// @vitest-environment node
// The queue as CSV in the console, over real HTTP behind a session: every request of the filter (read in
// keyset pages, not one page), by the command line's own CSV code (server/db/requestsCsv.ts), formulas
// escaped, audited once; every refusal: no session (401), a foreign Origin (403), a filter out of
// shape (400); and a page that cannot be read, which cuts the download and is logged.
import { desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { CSV_COLUMNS } from '../../server/db/requestsCsv.ts';
import { submissions, teamAudit } from '../../server/db/schema.ts';
import { TEAM_EXPORT_PAGE_ROWS, TEAM_QUEUE_SEARCH_MAX_LENGTH } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import type { teamClient } from '../support/teamClient.ts';
import { signedInConsole } from '../support/teamServer.ts';

/** Request ids at the start of a CSV line: one per request (a quoted cell spanning lines never starts so). */
const ROW_IDS = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}),/gm;

describe.each(testEngines())('the queue as CSV on $name', (engine) => {
  let database: Database;
  let server: RunningServer;
  let client: ReturnType<typeof teamClient>;
  const { io, run } = teamCli(() => database);
  /** `GET /api/team/requests.csv` (or another path) as the console's page fetches it: its Origin and the session cookie. */
  const csv = (query = '', headers: Record<string, string | null> = {}, method: 'GET' | 'HEAD' = 'GET') => {
    const sent: Record<string, string> = { origin: server.publicOrigin, cookie: client.cookie! };
    for (const [name, value] of Object.entries(headers)) if (value === null) delete sent[name]; else sent[name] = value;
    return fetch(`${server.url}/api/team/requests.csv${query}`, { method, headers: sent });
  };
  const exports = async () => database.db.select().from(teamAudit).where(eq(teamAudit.action, 'export'));

  /** what the server logged during the suite, one object per line */
  const logLines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
  signedInConsole(engine, (opened) => ({ database, server, client } = opened), { name: 'Kim Lee' }, logger);

  it('cuts the download when a page cannot be read, and logs the error by its type and SQLSTATE, never the filter', async () => {
    await storeSubmission(database.db, submissionBody({ fullName: 'Ada Quillfeather' }));
    logLines.length = 0;
    // the queue's page joins the cohorts: without them it cannot be read (the audit, before it, can)
    await database.db.execute(sql`alter table cohorts rename to cohorts_away`);
    try {
      const answer = await csv('?q=Quillfeather');
      expect(answer.status).toBe(200); // the answer had begun
      await expect(answer.text()).rejects.toThrow();
    } finally {
      await database.db.execute(sql`alter table cohorts_away rename to cohorts`);
    }
    const failure = logLines.find((line) => line.msg === 'team export failed');
    expect(failure?.err).toMatchObject({ code: '42P01', stack: expect.stringContaining('at ') });
    expect(JSON.stringify(logLines)).not.toContain('Quillfeather');
  });

  it("answers the command line's own CSV, as an attachment named by the date, with a formula escaped, and audits the export once", async () => {
    await storeSubmission(database.db, submissionBody({ workEmail: 'ada@example.com' }));
    await storeSubmission(database.db, submissionBody({ workEmail: 'eve@example.com', fullName: "=cmd|' /C calc'!A0", companyName: '@SUM(1+1)' }));
    await storeSubmission(database.db, privacyRequestBody());
    // requests stored within one clock tick share `received_at` (to the ms): both exports must still give
    // one order, id descending; each row is rewritten in descending id order, after which an export without the tie-break gave another order (checked)
    const stored = await database.db.select({ id: submissions.id }).from(submissions).orderBy(desc(submissions.id));
    for (const { id } of stored) await database.db.execute(sql`update submissions set received_at = '2026-12-01T09:00:00.000Z' where id = ${id}::uuid`);
    const answer = await csv();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="sonde-requests-${new Date().toISOString().slice(0, 10)}.csv"`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const body = await answer.text();
    expect(body.split('\n')[0]).toBe(CSV_COLUMNS.join(','));
    expect(body).toContain(`,'=cmd|' /C calc'!A0,`);
    expect(body).toContain(`,'@SUM(1+1),`);
    expect([...body.matchAll(ROW_IDS)].map((match) => match[1])).toEqual(stored.map(({ id }) => id));
    // the same bytes as `npm run requests -- export` (which prints them without the last newline)
    expect(await run(['export'])).toBe(0);
    expect(body).toBe(`${io.out[0]}\n`);

    const [entry, ...more] = await exports();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ requestId: null, detail: 'csv' });
  });

  it('exports every request of the filter across keyset pages, newest first, not one page', async () => {
    const first = await storeSubmission(database.db, submissionBody({ workEmail: 'first@example.com' }));
    await storeSubmission(database.db, privacyRequestBody());
    const bulk = TEAM_EXPORT_PAGE_ROWS + 5;
    await database.db.execute(sql`
      insert into submissions (kind, received_at, body_sha256, email, mailbox, client_key, body, review_state)
      select kind, received_at - make_interval(secs => n), body_sha256, 'bulk-' || n || '@example.com', 'bulk-' || n || '@example.com', client_key, body, review_state
      from submissions, generate_series(1, ${bulk}::int) n where id = ${first}::uuid`);
    const body = await (await csv('?kind=invite')).text();
    const ids = [...body.matchAll(ROW_IDS)].map((match) => match[1]);
    expect(ids).toHaveLength(bulk + 1);
    expect(new Set(ids).size).toBe(bulk + 1);
    expect(ids[0]).toBe(first);
    expect(body.split('\n').filter((line) => line === CSV_COLUMNS.join(','))).toHaveLength(1);
    // the queue's own filters: the text search narrows it as GET /requests does
    const one = await (await csv('?q=first%40example')).text();
    expect([...one.matchAll(ROW_IDS)].map((match) => match[1])).toEqual([first]);
    expect(await (await csv('?state=spam')).text()).toBe(`${CSV_COLUMNS.join(',')}\n`);
  });

  it('answers HEAD with the headers of the download, and neither reads nor audits an export that was not made', async () => {
    await storeSubmission(database.db, submissionBody());
    const head = await csv('?kind=invite', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(head.headers.get('content-disposition')).toMatch(/^attachment; filename="sonde-requests-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(await head.text()).toBe('');
    expect(await exports()).toEqual([]);
    // refused as GET is: no session, a foreign Origin
    expect((await csv('', { cookie: null }, 'HEAD')).status).toBe(401);
    expect((await csv('', { origin: 'https://evil.example' }, 'HEAD')).status).toBe(403);
    expect((await csv()).status).toBe(200);
    expect(await exports()).toHaveLength(1);
  });

  it('is not taken for a request of the queue: /requests/:id stays 404 for it, /requests.csv answers CSV', async () => {
    expect((await csv()).headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await client.call('GET', '/requests/requests.csv')).status).toBe(404);
  });

  it('refuses a filter out of shape (400), no session (401) and a foreign origin (403), and audits none of them', async () => {
    // a NUL would reach PostgreSQL, which refuses it: refused before the answer (and its audit) begins
    for (const query of ['?state=bogus', '?kind=all', '?cohort=', `?q=${'x'.repeat(TEAM_QUEUE_SEARCH_MAX_LENGTH + 1)}`, '?q=priya%40example.com%00', '?cohort=%00']) {
      const answer = await csv(query);
      expect(answer.status, query).toBe(400);
      expect(((await answer.json()) as { error: string }).error, query).toMatch(/^Bad query: /);
    }
    expect((await csv('', { cookie: null })).status).toBe(401);
    expect((await csv('', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await csv('', { origin: server.url })).status).toBe(403);
    expect((await csv('', { origin: null, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await exports()).toEqual([]);
  });
});
