import { Hono } from 'hono';
import { queuePage, type QueueCursor } from '../../db/queue.ts';
import { requestsCsv } from '../../db/requestsCsv.ts';
import { audit } from '../../db/team.ts';
import { TEAM_EXPORT_PAGE_ROWS } from '../../limits.ts';
import { problem } from '../middleware.ts';
import type { AppOptions } from '../options.ts';
import { queryProblem, queueFilterQuery, queueFiltersOf } from './queue.ts';
import type { TeamContext, TeamEnv } from './session.ts';

/**
 * The queue as CSV, behind the same-origin check (403) and a session (401). Path relative to `/api/team`:
 * - `GET /requests.csv?kind=&state=&cohort=&q=` (the filters of `GET /requests`, ./queue.ts, validated the
 *   same: 400 `{ error }` otherwise) → 200 `text/csv; charset=utf-8`, `Content-Disposition: attachment;
 *   filename="sonde-requests-YYYY-MM-DD.csv"` (the server's date, UTC): a header line, then every request
 *   of the filter, newest first, made by the command line's own CSV (server/db/requestsCsv.ts: every field
 *   as submitted, formulas escaped). Streamed: read in keyset pages of the queue's query
 *   (`TEAM_EXPORT_PAGE_ROWS` each, server/db/queue.ts `queuePage`), each written before the next is read,
 *   so requests stored meanwhile (newer than the first page) are left out and none repeats.
 * The export is written to the audit once (member, `export`, no request id) before its first row; a
 * `HEAD` gets the same status and headers, reads nothing and is not audited.
 */
export function exportRoutes(options: AppOptions, team: TeamContext): Hono<TeamEnv> {
  const db = options.database.db;
  return new Hono<TeamEnv>().get('/requests.csv', team.sameOrigin, team.session, async (c) => {
    const query = queueFilterQuery.safeParse(c.req.query());
    if (!query.success) return problem(c, 400, queryProblem(query.error));
    const now = team.now();
    const filters = queueFiltersOf(query.data, now);
    const headers = {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="sonde-requests-${now.toISOString().slice(0, 10)}.csv"`,
    };
    // HEAD, which Hono answers with this GET handler: the headers only, so nothing is read or audited
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    await audit(db, { at: now, memberId: c.var.member.id, action: 'export', detail: 'csv' });
    const encoder = new TextEncoder();
    let after: QueueCursor | undefined;
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      // one page per pull: the next is read only once the client has taken the last
      async pull(controller) {
        let page: Awaited<ReturnType<typeof queuePage>>;
        try {
          page = await queuePage(db, filters, { ...(after ? { after } : {}), limit: TEAM_EXPORT_PAGE_ROWS });
        } catch (error) {
          // the answer has begun: the download is cut; logged as every server error is, without the statement's parameters (the filter)
          options.logger.error({ err: error }, 'team export failed');
          controller.error(new Error('the export could not be read'));
          return;
        }
        const rows = page.entries.map((entry) => ({ row: entry.submissions, cohort: entry.cohort }));
        const text = requestsCsv(rows, now, { header: first });
        first = false;
        if (text) controller.enqueue(encoder.encode(text));
        if (page.next) after = page.next;
        else controller.close();
      },
    });
    return c.body(body, 200, headers);
  });
}
