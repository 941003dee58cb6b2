import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { VERIFICATION_CONFIRM_PATH, VERIFICATION_LOOKUP_PATH } from '#shared/verification';
import { withDeadline } from '../db/deadline.ts';
import {
  DATABASE_ANSWER_TIMEOUT_MS,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  HEALTH_CHECK_TIMEOUT_MS,
} from '../limits.ts';
import type { Api, AppEnv, AppOptions, ProblemStatus } from './api.ts';
import { clientKeyOf } from './clientAddress.ts';
import { mountSite } from './site.ts';
import { addSubmissionRoute } from './submissions.ts';
import { addVerificationRoutes } from './verification.ts';

export type { AppOptions } from './api.ts';

/**
 * The Sonde server as one Web-standard handler (`app.fetch(Request) → Response`): the same app runs as
 * a Node process (server/main.ts), inside Vite in development (server/devServer.ts), or as a
 * serverless function. Routes:
 * - `POST /api/submissions` (spec §7.1): 201 `{ ok: true, id }` once the row is committed; 400 naming
 *   the first problem; 403 for a foreign `Origin`; 413 over 64 KB; 415; 422 for a reused
 *   `Idempotency-Key` with another body; 429 with `Retry-After`; 503 when too many are in flight, or
 *   when the database does not answer within {@link DATABASE_ANSWER_TIMEOUT_MS};
 *   500 `{ error: 'Submission could not be stored' }` when the database fails. 405 for any method but
 *   POST and OPTIONS.
 * - `POST /api/privacy-requests/verify/lookup` and `POST /api/privacy-requests/verify` (11
 *   CCR §7060): `{ token }` of a verification link → 200 `VerificationAnswer` (shared/verification.ts) (the look-up changes
 *   nothing; the confirmation records the verification); 404 for a link unknown, expired or of an
 *   answered request; 400, 403, 413 over `VERIFICATION_BODY_MAX_BYTES` (server/limits.ts), 415; 429 past
 *   `VERIFICATION_CALLS_PER_MINUTE` per client IP; 500 when the database fails.
 * - `GET /api/health`: 200 `{ status: 'ok', database: 'ok' }`, or 503 when the database does not answer.
 * - the prerendered site (server/http/site.ts), when `site` is given.
 * Every `/api/*` answer carries `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`.
 * A malformed URL gets 400; no request can stop the server.
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const { database, logger } = options;
  const rateLimit = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const databaseTimeoutMs = options.databaseTimeoutMs ?? DATABASE_ANSWER_TIMEOUT_MS;
  const hops = options.trustedProxyHops ?? 1;
  const now = options.now ?? (() => new Date());
  const publicOrigin = typeof options.publicOrigin === 'string' ? () => options.publicOrigin as string : options.publicOrigin;

  const isAllowedOrigin = (origin: string): boolean => origin === publicOrigin() || (options.allowedOrigins?.includes(origin) ?? false);
  /**
   * The client's IP. Behind trusted proxies, each appends the address it received from to
   * `X-Forwarded-For`: the entry `hops` from the right is the one the first of them wrote, while any
   * entry left of it is the client's own text. Without a usable entry: the socket's peer.
   */
  const peerIp = (c: Context): string => {
    if (options.trustProxy) {
      const entries = c.req.header('x-forwarded-for')?.split(',').map((entry) => entry.trim()) ?? [];
      const appended = entries[entries.length - hops];
      if (appended !== undefined && isIP(appended) !== 0) return appended;
    }
    try {
      return getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      return 'unknown'; // app.fetch called without a Node socket (a serverless host, a test)
    }
  };
  /** The client every per-client limit counts: its IPv4 address, or its IPv6 /64 (server/http/clientAddress.ts). */
  const clientKey = (c: Context): string => clientKeyOf(peerIp(c));
  const problem = (c: Context, status: ProblemStatus, error: string) =>
    c.json({ error }, status);
  /** 503 with `Retry-After: 1`: the database did not answer within {@link DATABASE_ANSWER_TIMEOUT_MS}. */
  const databaseTooSlow = (c: Context) => {
    c.header('Retry-After', '1');
    logger.warn({ status: 503 }, 'the database did not answer in time');
    return problem(c, 503, 'The database did not answer in time; try again in a second');
  };

  /**
   * A request's body, whole, as JSON: `{ value }`, or the 400 to answer when the client went away (or
   * Node cut a body trickled past REQUEST_TIMEOUT_MS: logged at info, nobody to answer) or it is not JSON.
   */
  const readJson = async (c: Context, what: 'submission' | 'verification'): Promise<{ value: unknown } | Response> => {
    let raw: string;
    try {
      raw = await c.req.text();
    } catch (error) {
      logger.info({ err: error }, `${what} body not received whole`);
      return problem(c, 400, 'Body was not received whole');
    }
    try {
      return { value: JSON.parse(raw) as unknown };
    } catch {
      return problem(c, 400, 'Body is not valid JSON');
    }
  };

  const api: Api = { options, logger, database, problem, databaseTooSlow, readJson, clientKey, now, databaseTimeoutMs, rateLimit };

  const app = new Hono<AppEnv>();

  // An API answer is data for the page that asked: never sniffed as another type, never cached. Set
  // before the answer is made, so every c.json/c.body of the route (and of onError) carries them.
  app.use('/api/*', async (c, next) => {
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    logger.error({ err: error, method: c.req.method }, 'unhandled error');
    return c.req.path.startsWith('/api/') ? problem(c, 500, 'Internal server error') : c.text('Internal server error', 500);
  });

  // A path that is not valid percent-encoding (`/%E0%A4%A`) is the client's error, never the server's.
  app.use('*', async (c, next) => {
    try {
      decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.text('Bad request: the URL is not valid percent-encoding', 400);
    }
    await next();
  });

  app.get('/api/health', async (c) => {
    try {
      await withDeadline(database.ping(), HEALTH_CHECK_TIMEOUT_MS);
      return c.json({ status: 'ok', database: 'ok' });
    } catch (error) {
      logger.warn({ err: error }, 'health check: database unreachable');
      return c.json({ status: 'error', database: 'unreachable' }, 503);
    }
  });

  const originGuard: MiddlewareHandler = async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedOrigin(origin)) {
      logger.info({ status: 403, path: c.req.path }, 'request refused: origin not allowed');
      return problem(c, 403, 'Origin not allowed');
    }
    await next();
  };
  const allowOrigins = cors({
    origin: (origin) => (isAllowedOrigin(origin) ? origin : null),
    allowMethods: ['POST'],
    allowHeaders: ['content-type', 'idempotency-key'],
    maxAge: 600,
  });
  for (const path of [SUBMISSIONS_PATH, VERIFICATION_LOOKUP_PATH, VERIFICATION_CONFIRM_PATH]) {
    app.use(path, originGuard);
    app.use(path, allowOrigins);
  }

  addSubmissionRoute(app, api);
  addVerificationRoutes(app, api);

  for (const path of [SUBMISSIONS_PATH, VERIFICATION_LOOKUP_PATH, VERIFICATION_CONFIRM_PATH]) {
    app.all(path, (c) => {
      c.header('Allow', 'POST, OPTIONS');
      return problem(c, 405, 'Use POST');
    });
  }
  app.all('/api/*', (c) => c.json({ error: 'Not found' }, 404));

  if (options.site) mountSite(app, options.site);
  return app;
}
