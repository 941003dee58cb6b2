import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { MAX_BODY_BYTES, SUBMISSIONS_PATH } from '#shared/submission';
import type { Database } from './db/database.ts';
import {
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  HEALTH_CHECK_TIMEOUT_MS,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  MAX_CONCURRENT_SUBMISSIONS,
  RATE_LIMIT_WINDOW_MS,
} from './limits.ts';
import type { Logger } from './logger.ts';
import { mountSite } from './site.ts';
import { createSubmissionWriter } from './groupCommit.ts';
import { checkSubmissionBody } from './submissionSchema.ts';

/** What {@link createApp} needs. Everything but `database` and `logger` has a default. */
export interface AppOptions {
  database: Database;
  logger: Logger;
  /** the prerendered site (scripts/build.mjs) with the headers it was built with; absent: API only */
  site?: { distDir: string; htmlHeaders: Record<string, string> };
  /** submissions per client IP per minute before 429 (`SONDE_RATE_LIMIT_PER_MINUTE`) */
  rateLimitPerMinute?: number;
  /** behind a load balancer: the client IP is the first `X-Forwarded-For` entry (`SONDE_TRUST_PROXY`) */
  trustProxy?: boolean;
  /** origins allowed to POST (`SONDE_ALLOWED_ORIGINS`); absent: only the server's own origin */
  allowedOrigins?: string[];
  /** submissions handled at once before 503 */
  maxConcurrentSubmissions?: number;
  /** the server's clock, for the `submittedAt` window; tests fix it */
  now?: () => Date;
  /** with a webhook configured: each stored submission gets its notification, and the sender is woken */
  notifier?: { kick(): void };
}

const JSON_CONTENT_TYPE = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;

/**
 * The Sonde server as one Web-standard handler (`app.fetch(Request) → Response`): the same app runs as
 * a Node process (server/main.ts), inside Vite in development (server/devServer.ts), or as a
 * serverless function. Routes:
 * - `POST /api/submissions` (spec §7.1): 201 `{ ok: true, id }` once the row is committed; 400 naming
 *   the first problem; 403 for a foreign `Origin`; 413 over 64 KB; 415; 422 for a reused
 *   `Idempotency-Key` with another body; 429 with `Retry-After`; 503 when too many are in flight;
 *   500 `{ error: 'Submission could not be stored' }` when the database fails. 405 for other methods.
 * - `GET /api/health`: 200 `{ status: 'ok', database: 'ok' }`, or 503 when the database does not answer.
 * - the prerendered site (server/site.ts), when `site` is given.
 * A malformed URL gets 400; no request can stop the server.
 */
export function createApp(options: AppOptions): Hono {
  const { database, logger } = options;
  const rateLimit = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const maxInFlight = options.maxConcurrentSubmissions ?? MAX_CONCURRENT_SUBMISSIONS;
  const now = options.now ?? (() => new Date());
  let inFlight = 0;
  const writer = createSubmissionWriter(database.db, {
    limitPerWindow: rateLimit,
    windowMs: RATE_LIMIT_WINDOW_MS,
    notify: options.notifier !== undefined,
  });

  /** `https://host` as the visitor's browser sees this server (behind a proxy: its forwarded host). */
  const ownOrigin = (c: Context): string => {
    const url = new URL(c.req.url);
    if (!options.trustProxy) return url.origin;
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.replace(':', '');
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || url.host;
    return `${proto}://${host}`;
  };
  const isAllowedOrigin = (origin: string, c: Context): boolean =>
    options.allowedOrigins ? options.allowedOrigins.includes(origin) : origin === ownOrigin(c);
  const clientIp = (c: Context): string => {
    if (options.trustProxy) {
      const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
      if (forwarded) return forwarded;
    }
    try {
      return getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      return 'unknown'; // app.fetch called without a Node socket (a serverless host, a test)
    }
  };
  const problem = (c: Context, status: 400 | 403 | 405 | 413 | 415 | 422 | 429 | 500 | 503, error: string) =>
    c.json({ error }, status);

  const app = new Hono();

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
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        database.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), HEALTH_CHECK_TIMEOUT_MS);
        }),
      ]);
      return c.json({ status: 'ok', database: 'ok' });
    } catch (error) {
      logger.warn({ err: error }, 'health check: database unreachable');
      return c.json({ status: 'error', database: 'unreachable' }, 503);
    } finally {
      clearTimeout(timer);
    }
  });

  const originGuard: MiddlewareHandler = async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedOrigin(origin, c)) {
      logger.info({ status: 403 }, 'submission refused: origin not allowed');
      return problem(c, 403, 'Origin not allowed');
    }
    await next();
  };
  app.use(SUBMISSIONS_PATH, originGuard);
  app.use(
    SUBMISSIONS_PATH,
    cors({
      origin: (origin, c) => (isAllowedOrigin(origin, c) ? origin : null),
      allowMethods: ['POST'],
      allowHeaders: ['content-type', 'idempotency-key'],
      maxAge: 600,
    }),
  );

  const tooLarge = (c: Context) => problem(c, 413, `Body is larger than ${MAX_BODY_BYTES} bytes`);
  const streamedBodyLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  /**
   * 413 over {@link MAX_BODY_BYTES}. With a Content-Length (what browsers send) the header decides, and
   * Node has already made it the body's exact length; only a chunked body goes through Hono's
   * bodyLimit, which counts it as it streams. (bodyLimit would first build a whole Web Request and
   * stream around every body: measured under load, 0.62–0.68 ms of server CPU per submission with it,
   * 0.32–0.45 ms without.)
   */
  const limitBody: MiddlewareHandler = async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return streamedBodyLimit(c, next);
    if (Number(length) > MAX_BODY_BYTES) return tooLarge(c);
    await next();
  };

  app.post(
    SUBMISSIONS_PATH,
    async (c, next) => {
      if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) {
        return problem(c, 415, 'Content-Type must be application/json');
      }
      const key = c.req.header('idempotency-key');
      if (key !== undefined && (key.trim() === '' || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)) {
        return problem(c, 400, `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
      }
      if (inFlight >= maxInFlight) {
        c.header('Retry-After', '1');
        return problem(c, 503, 'Too many submissions at once; try again in a second');
      }
      inFlight += 1;
      try {
        await next();
      } finally {
        inFlight -= 1;
      }
    },
    limitBody,
    async (c) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await c.req.text());
      } catch {
        return problem(c, 400, 'Body is not valid JSON');
      }
      const checked = checkSubmissionBody(parsed, now());
      if (!checked.ok) return problem(c, 400, checked.problem);
      try {
        const outcome = await writer.accept({
          body: checked.body,
          idempotencyKey: c.req.header('idempotency-key') ?? null,
          clientIp: clientIp(c),
        });
        switch (outcome.status) {
          case 'stored':
            logger.info({ submissionId: outcome.id, kind: outcome.kind }, 'submission stored');
            options.notifier?.kick();
            return c.json({ ok: true, id: outcome.id }, 201);
          case 'replayed':
            // A repeat of a stored submission answers what the first answered.
            c.header('Idempotent-Replayed', 'true');
            return c.json({ ok: true, id: outcome.id }, 201);
          case 'conflict':
            return problem(c, 422, 'Idempotency-Key was already used with a different body');
          case 'limited':
            c.header('Retry-After', String(outcome.retryAfterSeconds));
            logger.info({ status: 429 }, 'submission refused: rate limit');
            return problem(c, 429, `More than ${rateLimit} submissions in a minute; try again in ${outcome.retryAfterSeconds} s`);
        }
      } catch (error) {
        logger.error({ err: error }, 'submission could not be stored');
        return problem(c, 500, 'Submission could not be stored');
      }
    },
  );
  app.on(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'], SUBMISSIONS_PATH, (c) => {
    c.header('Allow', 'POST, OPTIONS');
    return problem(c, 405, 'Use POST');
  });
  app.all('/api/*', (c) => c.json({ error: 'Not found' }, 404));

  if (options.site) mountSite(app, options.site);
  return app;
}
