import { Hono } from 'hono';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { VERIFICATION_CONFIRM_PATH, VERIFICATION_LOOKUP_PATH } from '#shared/verification';
import { healthRoutes } from './health.ts';
import { answerError, apiHeaders, apiMiddleware, apiNotFound, wellFormedUrl } from './middleware.ts';
import type { AppOptions } from './options.ts';
import { countRequests } from './requestMetrics.ts';
import { siteRoutes } from './site.ts';
import { submissionRoutes } from './submissions.ts';
import { TEAM_API_PATH, teamRoutes } from './team/index.ts';
import { verificationRoutes } from './verification.ts';

export type { AppOptions } from './options.ts';

/**
 * The Sonde server as one Web-standard handler (`app.fetch(Request) → Response`): the same app runs as
 * a Node process (server/main.ts), inside Vite in development (server/devServer.ts), or as a
 * serverless function. It composes, in the order a request meets them:
 * - with the metrics on, every answer counted and timed by its route's pattern (server/http/requestMetrics.ts);
 * - on every `/api/*` answer, whatever its status, `X-Content-Type-Options: nosniff` and
 *   `Cache-Control: no-store`; a malformed URL gets 400 and an error no route answered 500: no request
 *   can stop the server (server/http/middleware.ts);
 * - `GET /api/health` (server/http/health.ts);
 * - `POST /api/submissions` (spec §7.1, server/http/submissions.ts);
 * - `POST /api/privacy-requests/verify/lookup` and `POST /api/privacy-requests/verify`, the
 *   verification link of a privacy request (11 CCR §7060, server/http/verification.ts);
 * - `/api/team/*`, the team console's API: passkey sign-in and enrollment, its session, and the
 *   read-only queue, same-origin only and behind a session (server/http/team/);
 * - 404 `{ error: 'Not found' }` for any other `/api/*` path;
 * - the prerendered site (server/http/site.ts), when `site` is given.
 * Each API route is a Hono sub-app that uses the middleware of server/http/middleware.ts, configured
 * once here: Origin and CORS, the client's address, the content type and the JSON body.
 */
export function createApp(options: AppOptions): Hono {
  const api = apiMiddleware(options);
  const verification = verificationRoutes(options, api);
  const app = new Hono();
  if (options.metrics) app.use('*', countRequests(options.metrics));
  app.use('/api/*', apiHeaders);
  app.onError(answerError(options.logger));
  app.use('*', wellFormedUrl);
  app.route('/api/health', healthRoutes(options));
  app.route(SUBMISSIONS_PATH, submissionRoutes(options, api));
  app.route(VERIFICATION_LOOKUP_PATH, verification.lookUp);
  app.route(VERIFICATION_CONFIRM_PATH, verification.confirm);
  app.route(TEAM_API_PATH, teamRoutes(options, api));
  app.all('/api/*', apiNotFound);
  if (options.site) app.route('/', siteRoutes(options.site));
  return app;
}
