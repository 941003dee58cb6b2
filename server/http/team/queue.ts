import { Hono } from 'hono';
import { z } from 'zod';
import { textProblem } from '#shared/text';
import { REVIEW_STATES } from '#machines/inviteReviewMachine';
import type { ClientMetadata } from '#shared/submission';
import { findQueueEntry, otherRequestsOf, queueCounts, queuePage, type QueueCursor, type QueueFilters } from '../../db/queue.ts';
import { isDataException } from '../../db/submissions.ts';
import { summary } from '../../db/summary.ts';
import { timelineOf } from '../../db/timeline.ts';
import { QUEUE_CURSOR_MAX_LENGTH, TEAM_QUEUE_PAGE_MAX, TEAM_QUEUE_SEARCH_MAX_LENGTH } from '../../limits.ts';
import { problem } from '../middleware.ts';
import type { AppOptions } from '../options.ts';
import { requestId } from './bodies.ts';
import type { TeamContext, TeamEnv } from './session.ts';

/** The client metadata of spec §3, shown apart from what the requester typed. */
const METADATA_KEYS: ReadonlyArray<keyof ClientMetadata> = ['submittedAt', 'clientIP', 'browserId', 'userAgent', 'browserLanguage', 'timezone', 'screenResolution'];

/** The `state` filter: an invite's review state, a request `open` or `done`, or an open privacy request `overdue`. */
const QUEUE_STATES = [...REVIEW_STATES, 'open', 'done', 'overdue'] as const;

/** A cursor's content: PostgreSQL's text of a `timestamptz` and a UUID. */
const cursorShape = z.tuple([z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/), z.uuid()]);

/** The queue's filters as a query string carries them: `GET /requests` and `GET /requests.csv` (./export.ts). */
/**
 * A search's text keeps the text rule of what it searches (shared/text.ts: no control character, line
 * break or direction control), so it can match: and PostgreSQL takes no NUL in a text.
 */
const searchText = (schema: z.ZodString) =>
  schema.superRefine((value, ctx) => {
    const problemText = textProblem(value);
    if (problemText) ctx.addIssue({ code: 'custom', message: `the text ${problemText}` });
  });

export const queueFilterQuery = z.object({
  kind: z.enum(['invite', 'privacy']).optional(),
  state: z.enum(QUEUE_STATES).optional(),
  cohort: searchText(z.string().min(1).max(TEAM_QUEUE_SEARCH_MAX_LENGTH)).optional(),
  q: searchText(z.string().trim().max(TEAM_QUEUE_SEARCH_MAX_LENGTH)).optional(),
});

/**
 * The filters of server/db/queue.ts from a parsed {@link queueFilterQuery}: `state` `open` or `done` is the
 * status, `overdue` the open privacy requests past due at `now`, any other a review state; an empty `q` none.
 */
export function queueFiltersOf(query: z.infer<typeof queueFilterQuery>, now: Date): QueueFilters {
  const { kind, state, cohort, q } = query;
  return {
    kind,
    cohort,
    q: q || undefined,
    ...(state === 'open' || state === 'done' ? { status: state } : state === 'overdue' ? { overdueAt: now } : state ? { state } : {}),
  };
}

/** A 400 answer's words for a query out of its shape: the parameters at fault. */
export const queryProblem = (error: z.ZodError): string => `Bad query: ${error.issues.map((issue) => issue.path.join('.')).join(', ')}`;

const queueQuery = queueFilterQuery.extend({
  after: z.string().max(QUEUE_CURSOR_MAX_LENGTH).optional(),
  // digits only: Number() would also take `1e2`, `0x10`, ` 5` and `5.0`
  limit: z.string().regex(/^\d{1,6}$/).transform(Number).pipe(z.number().int().min(1).max(TEAM_QUEUE_PAGE_MAX)).default(TEAM_QUEUE_PAGE_MAX),
});

/** A page's `next`: opaque to the client (base64url of JSON), exact to the microsecond. */
function encodeCursor(cursor: QueueCursor): string {
  return Buffer.from(JSON.stringify([cursor.receivedAt, cursor.id])).toString('base64url');
}

/**
 * @returns the cursor, or undefined when `text` is not of a cursor's shape; one of that shape whose time
 *   is no instant is refused by the database (the route answers 400 for both)
 */
function decodeCursor(text: string): QueueCursor | undefined {
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? { receivedAt: parsed.data[0], id: parsed.data[1] } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The team's queue, read-only, behind a session (401) and the same-origin check (403). Paths relative
 * to `/api/team`:
 * - `GET /requests?kind=&state=&cohort=&q=&after=&limit=` → 200 `{ requests: RequestSummary[] (server/db/summary.ts),
 *   next: string | null, counts: Record<state, number> }`, newest first. `kind`: `invite` | `privacy`;
 *   `state`: a review state (`received`, `accepted`, `waitlisted`, `declined`, `spam`), `open`, `done` or
 *   `overdue`; spam only with `state=spam`; `cohort`: a cohort's name; `q`: text in the name, email or
 *   company, any case (at most `TEAM_QUEUE_SEARCH_MAX_LENGTH` characters); `after`: the previous page's
 *   `next` (keyset: rows stored meanwhile neither skip nor repeat); `limit`: 1 to `TEAM_QUEUE_PAGE_MAX`
 *   (default). `counts`: per state, for every filter but `state` (server/db/queue.ts `queueCounts`).
 *   400 `{ error }` for a parameter out of its shape or a cursor not made here.
 * - `GET /requests/:id` → 200 `{ request: RequestSummary, fields: { …as submitted }, metadata: ClientMetadata,
 *   timeline: TimelineEntry[] (server/db/timeline.ts), sameMailbox: [{ id, kind, receivedAt, state, email, sameAddress }] }`
 *   (`sameAddress` false: another spelling of the mailbox, maybe the same person, maybe not);
 *   404 for an id unknown or not a UUID (in either case).
 */
export function queueRoutes(options: AppOptions, team: TeamContext): Hono<TeamEnv> {
  const db = options.database.db;
  return new Hono<TeamEnv>()
    .use('*', team.sameOrigin, team.session)
    .get('/', async (c) => {
      const query = queueQuery.safeParse(c.req.query());
      if (!query.success) return problem(c, 400, queryProblem(query.error));
      const { after, limit } = query.data;
      const notACursor = () => problem(c, 400, 'Bad query: after is not a cursor of this queue');
      const cursor = after === undefined ? undefined : decodeCursor(after);
      if (after !== undefined && !cursor) return notACursor();
      const now = team.now();
      const filters = queueFiltersOf(query.data, now);
      let page: Awaited<ReturnType<typeof queuePage>>;
      let counts: Awaited<ReturnType<typeof queueCounts>>;
      try {
        [page, counts] = await Promise.all([queuePage(db, filters, { after: cursor, limit }), queueCounts(db, filters, now)]);
      } catch (error) {
        // A cursor of the right shape whose time is no instant (month 13, year 0): PostgreSQL's timestamptz
        // refuses it (SQLSTATE class 22, data exception), the one judge of what a timestamp is.
        if (cursor && isDataException(error)) return notACursor();
        throw error;
      }
      return c.json(
        {
          requests: page.entries.map((entry) => summary(entry.submissions, now, entry.privacy_records, entry)),
          next: page.next ? encodeCursor(page.next) : null,
          counts,
        },
        200,
      );
    })
    .get('/:id', async (c) => {
      const id = requestId.safeParse(c.req.param('id'));
      const entry = id.success ? await findQueueEntry(db, id.data) : undefined;
      if (!entry) return problem(c, 404, 'No such request');
      const row = entry.submissions;
      const data = row.body.data as unknown as Record<string, unknown>;
      const [timeline, sameMailbox] = await Promise.all([timelineOf(db, row), otherRequestsOf(db, row)]);
      return c.json(
        {
          request: summary(row, team.now(), entry.privacy_records, entry),
          fields: Object.fromEntries(Object.entries(data).filter(([key]) => !(METADATA_KEYS as readonly string[]).includes(key))),
          metadata: Object.fromEntries(METADATA_KEYS.map((key) => [key, data[key] ?? null])),
          timeline,
          sameMailbox: sameMailbox.map((other) => ({ ...other, receivedAt: other.receivedAt.toISOString() })),
        },
        200,
      );
    });
}
