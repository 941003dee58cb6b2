import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { timeout } from 'hono/timeout';
import { TEAM_API_PATH } from '#shared/team';
import { answerOtherMethods, type ApiMiddleware } from '../middleware.ts';
import type { AppOptions } from '../options.ts';
import { decisionRoutes } from './decisions.ts';
import { exportRoutes } from './export.ts';
import { passkeyRoutes } from './passkeys.ts';
import { previewRoutes } from './preview.ts';
import { privacyRoutes } from './privacy.ts';
import { queueRoutes } from './queue.ts';
import { teamContext, type TeamEnv } from './session.ts';

/** Where the team's API is mounted (server/http/app.ts; shared/team.ts). */
export { TEAM_API_PATH };

/**
 * The team's API, mounted at {@link TEAM_API_PATH}: the passkey ceremonies and the session
 * (./passkeys.ts), the decisions, notes and cohorts (./decisions.ts), the steps on a privacy request at `/privacy`
 * (./privacy.ts), the mail preview at `/preview` (./preview.ts), the queue at `/requests` (./queue.ts) and as CSV at
 * `/requests.csv` (./export.ts). Every answer carries
 * `Cache-Control: no-store` (server/http/middleware.ts `apiHeaders`, on all of `/api/*`); every call
 * needs an `Origin` equal to the public origin (403), and every call but the sign-in and enrollment
 * ceremonies a session (401). An unknown path under it is 404 `{ error: 'Not found' }` (app.ts); a path it
 * routes, asked with another method (PUT, DELETE, PATCH, OPTIONS…), 405 `{ error }` with `Allow` naming the
 * methods it takes (middleware.ts `answerOtherMethods`): the team's API is same-origin, so no `OPTIONS` preflight.
 * Every call is answered within `DATABASE_ANSWER_TIMEOUT_MS` (hono/timeout): past it, 503 with
 * `Retry-After: 1` and `{ error }`, logged at warn, as a submission is (`ApiMiddleware.databaseTooSlow`),
 * so that a database that stopped answering never holds the member, or the call, longer. The call goes on
 * from where it waited once the database answers, and may still be done, never twice: a decision whose body
 * was read is then made, and the member's retry refused (409) as made already; one still at its session
 * check ends there (its body is gone with the answer), and the retry makes it. A ceremony past it may
 * register the passkey or start the session without the cookie reaching the browser: the member signs in
 * again. The CSV export is answered within it; its rows are read as the client takes them (./export.ts).
 * @param api - the shared middleware (client address, content type, JSON body, the database's time)
 */
export function teamRoutes(options: AppOptions, api: ApiMiddleware): Hono<TeamEnv> {
  const team = teamContext(options);
  const routes = new Hono<TeamEnv>()
    .use('*', timeout(api.databaseTimeoutMs, (c) => new HTTPException(503, { res: api.databaseTooSlow(c) })))
    .route('/', passkeyRoutes(options, api, team))
    .route('/', decisionRoutes(options, api, team))
    .route('/privacy', privacyRoutes(options, api, team))
    .route('/', previewRoutes(options, api, team))
    // before the queue's `/requests/:id`, which `requests.csv` does not match anyway (no slash): tested
    .route('/', exportRoutes(options, team))
    .route('/requests', queueRoutes(options, team));
  return answerOtherMethods(routes);
}
