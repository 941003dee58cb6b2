import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { rateLimiter } from 'hono-rate-limiter';
import { z } from 'zod';
import { MAX_BODY_BYTES, SUBMISSIONS_PATH } from '#shared/submission';
import { UNKNOWN_LINK_ERROR, VERIFICATION_CONFIRM_PATH, VERIFICATION_LOOKUP_PATH, type VerificationAnswer } from '#shared/verification';
import type { Database } from '../db/database.ts';
import {
  DATABASE_ANSWER_TIMEOUT_MS,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  HEALTH_CHECK_TIMEOUT_MS,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  MAX_CONCURRENT_SUBMISSIONS,
  MAX_UPLOADS_PER_CLIENT,
  RATE_LIMIT_WINDOW_MS,
  VERIFICATION_BODY_MAX_BYTES,
  VERIFICATION_CALLS_PER_MINUTE,
} from '../limits.ts';
import type { Logger } from '../logger.ts';
import { mountSite } from './site.ts';
import { clientKeyOf } from './clientAddress.ts';
import { DeadlineError, withDeadline } from '../db/deadline.ts';
import { createSubmissionWriter } from '../db/groupCommit.ts';
import { sqlStateOf } from '../db/submissions.ts';
import { checkSubmissionBody } from './submissionSchema.ts';
import { confirmVerification, lookUpVerification } from '../db/verificationLinks.ts';

/** What {@link createApp} needs. Everything but `database` and `logger` has a default. */
export interface AppOptions {
  database: Database;
  logger: Logger;
  /** the prerendered site (scripts/build.mjs) with the headers it was built with; absent: API only */
  site?: { distDir: string; htmlHeaders: Record<string, string> };
  /** submissions per client IP per minute before 429 (`SONDE_RATE_LIMIT_PER_MINUTE`) */
  rateLimitPerMinute?: number;
  /**
   * behind a load balancer (`SONDE_TRUST_PROXY`): the client IP is the `trustedProxyHops`-th
   * `X-Forwarded-For` entry from the right, the one the first trusted proxy appended
   */
  trustProxy?: boolean;
  /** `SONDE_TRUSTED_PROXY_HOPS`: proxies in front of the server that append to `X-Forwarded-For`; default 1 */
  trustedProxyHops?: number;
  /**
   * the site's origin as visitors reach it (server/config.ts `publicOriginOf`), always allowed to POST;
   * a function when it is known only once the server listens. Never read from a request header.
   */
  publicOrigin: string | (() => string);
  /** more origins allowed to POST (`SONDE_ALLOWED_ORIGINS`) */
  allowedOrigins?: string[];
  /** how long a request waits for the database before 503 ({@link DATABASE_ANSWER_TIMEOUT_MS}; tests shorten it) */
  databaseTimeoutMs?: number;
  /** submissions handled at once, counted once their body has arrived, before 503 */
  maxConcurrentSubmissions?: number;
  /** bodies one client address may be sending at once before 429 */
  maxUploadsPerClient?: number;
  /** the server's clock, for the `submittedAt` window; tests fix it */
  now?: () => Date;
  /**
   * the outbox (server/outbox/sender.ts), woken after each stored submission, and which deliveries each
   * stored submission gets in the same statement: the webhook's announcement, the requester's mail
   * (acknowledgment or confirmation), the team's mail
   */
  outbox?: { kick(): void; webhook: boolean; requesterMail: boolean; teamMail: boolean };
}

/** Per-request values the submission route passes between its steps. */
type AppEnv = { Variables: { bodyReceived: () => void } };

const JSON_CONTENT_TYPE = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;

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
 * - `POST /api/privacy-requests/verify/lookup` and `POST /api/privacy-requests/verify` (issue #27, 11
 *   CCR §7060): `{ token }` of a verification link → 200 {@link VerificationAnswer} (the look-up changes
 *   nothing; the confirmation records the verification); 404 for a link unknown, expired or of an
 *   answered request; 400, 403, 413 over {@link VERIFICATION_BODY_MAX_BYTES}, 415; 429 past
 *   {@link VERIFICATION_CALLS_PER_MINUTE} per client IP; 500 when the database fails.
 * - `GET /api/health`: 200 `{ status: 'ok', database: 'ok' }`, or 503 when the database does not answer.
 * - the prerendered site (server/http/site.ts), when `site` is given.
 * Every `/api/*` answer carries `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`.
 * A malformed URL gets 400; no request can stop the server.
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const { database, logger } = options;
  const rateLimit = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const maxInFlight = options.maxConcurrentSubmissions ?? MAX_CONCURRENT_SUBMISSIONS;
  const maxUploads = options.maxUploadsPerClient ?? MAX_UPLOADS_PER_CLIENT;
  const databaseTimeoutMs = options.databaseTimeoutMs ?? DATABASE_ANSWER_TIMEOUT_MS;
  const hops = options.trustedProxyHops ?? 1;
  const now = options.now ?? (() => new Date());
  const publicOrigin = typeof options.publicOrigin === 'string' ? () => options.publicOrigin as string : options.publicOrigin;
  let inFlight = 0;
  /** bodies being received, by client address */
  const uploads = new Map<string, number>();
  const writer = createSubmissionWriter(database.db, {
    limitPerWindow: rateLimit,
    windowMs: RATE_LIMIT_WINDOW_MS,
    notify: options.outbox?.webhook ?? false,
    mail: { requester: options.outbox?.requesterMail ?? false, team: options.outbox?.teamMail ?? false },
  });

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
  const problem = (c: Context, status: 400 | 403 | 405 | 413 | 415 | 422 | 429 | 500 | 503, error: string) =>
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

  const tooLarge = (c: Context) => problem(c, 413, `Body is larger than ${MAX_BODY_BYTES} bytes`);
  const streamedBodyLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  /**
   * 413 over {@link MAX_BODY_BYTES}. With a Content-Length (what browsers send) the header decides, and
   * Node has already made it the body's exact length; only a chunked body goes through Hono's
   * bodyLimit, which counts it as it streams. (bodyLimit would first build a whole Web Request and
   * stream around every body: measured under load, 0.62–0.68 ms of server CPU per submission with it,
   * 0.32–0.45 ms without.)
   */
  const limitBody: MiddlewareHandler<AppEnv> = async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) {
      // bodyLimit reads a chunked body itself: a client that goes away midway is not the server's error
      let reached = false;
      try {
        return await streamedBodyLimit(c, async () => {
          reached = true;
          await next();
        });
      } catch (error) {
        if (reached) throw error;
        logger.info({ err: error }, 'submission body not received whole');
        return problem(c, 400, 'Body was not received whole');
      }
    }
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
      await next();
    },
    // Only the bodies under way are counted per address, before any is read: one address cannot hold
    // what other visitors need, however slowly it sends (each request is cut at REQUEST_TIMEOUT_MS).
    async (c, next) => {
      const client = clientKey(c);
      const sending = uploads.get(client) ?? 0;
      if (sending >= maxUploads) {
        c.header('Retry-After', '1');
        logger.info({ status: 429 }, 'submission refused: too many unfinished uploads from one address');
        return problem(c, 429, 'Too many submissions under way from your address; try again in a second');
      }
      uploads.set(client, sending + 1);
      let receiving = true;
      const bodyReceived = () => {
        if (!receiving) return;
        receiving = false;
        const left = (uploads.get(client) ?? 1) - 1;
        if (left === 0) uploads.delete(client);
        else uploads.set(client, left);
      };
      c.set('bodyReceived', bodyReceived);
      try {
        await next();
      } finally {
        bodyReceived();
      }
    },
    limitBody,
    async (c) => {
      const parsed = await readJson(c, 'submission');
      if (parsed instanceof Response) return parsed;
      c.get('bodyReceived')();
      const checked = checkSubmissionBody(parsed.value, now());
      if (!checked.ok) return problem(c, 400, checked.problem);
      // Counted only from here, once the body is whole: what the database is working on.
      if (inFlight >= maxInFlight) {
        c.header('Retry-After', '1');
        return problem(c, 503, 'Too many submissions at once; try again in a second');
      }
      // Counted until the database has answered, even when the visitor was answered 503 before.
      inFlight += 1;
      const storing = writer
        .accept({ body: checked.body, idempotencyKey: c.req.header('idempotency-key') ?? null, clientIp: clientKey(c) })
        .finally(() => {
          inFlight -= 1;
        });
      try {
        const outcome = await withDeadline(storing, databaseTimeoutMs);
        switch (outcome.status) {
          case 'stored':
            logger.info({ submissionId: outcome.id, kind: outcome.kind }, 'submission stored');
            options.outbox?.kick();
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
        if (error instanceof DeadlineError) {
          // what it does later is logged here; a retry with the same key is answered as a replay
          storing.then(
            () => logger.warn('a submission answered 503 (database too slow) was stored after all'),
            (late: unknown) => logger.error({ err: late }, 'submission could not be stored'),
          );
          return databaseTooSlow(c);
        }
        // SQLSTATE class 22, data exception: a value the schema let through and the database cannot
        // store is the client's error; retrying it would never succeed.
        if (sqlStateOf(error)?.startsWith('22')) {
          logger.warn({ err: error }, 'submission refused by the database: a value it cannot store');
          return problem(c, 400, 'Body holds a value that cannot be stored');
        }
        logger.error({ err: error }, 'submission could not be stored');
        return problem(c, 500, 'Submission could not be stored');
      }
    },
  );

  // The verification link of a privacy request (issue #27): a look-up that changes nothing, and the
  // confirmation. Both only by POST, the token in the body, never in a URL.
  const verificationLimit = rateLimiter<AppEnv>({
    windowMs: 60_000,
    limit: VERIFICATION_CALLS_PER_MINUTE,
    keyGenerator: (c) => clientKey(c),
    handler: (c) => {
      logger.info({ status: 429 }, 'verification refused: rate limit');
      return problem(c, 429, 'Too many attempts from your address; try again in a minute');
    },
  });
  const verificationBody = bodyLimit({
    maxSize: VERIFICATION_BODY_MAX_BYTES,
    onError: (c) => problem(c, 413, `Body is larger than ${VERIFICATION_BODY_MAX_BYTES} bytes`),
  });
  const tokenBody = z.object({ token: z.string() });
  const verificationRoute =
    (work: (token: string) => Promise<VerificationAnswer | null>, what: string) =>
    async (c: Context<AppEnv>) => {
      if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) return problem(c, 415, 'Content-Type must be application/json');
      const parsed = await readJson(c, 'verification');
      if (parsed instanceof Response) return parsed;
      const body = tokenBody.safeParse(parsed.value);
      if (!body.success) return problem(c, 400, 'Body must be { "token": string }');
      try {
        const answer = await withDeadline(work(body.data.token), databaseTimeoutMs);
        if (!answer) return c.json({ error: UNKNOWN_LINK_ERROR }, 404);
        if (answer.status === 'confirmed') logger.info({ status: 200 }, 'privacy request verified by its link');
        return c.json(answer, 200);
      } catch (error) {
        if (error instanceof DeadlineError) return databaseTooSlow(c);
        logger.error({ err: error }, `verification ${what} failed`);
        return problem(c, 500, 'The link could not be checked; try again');
      }
    };
  app.post(VERIFICATION_LOOKUP_PATH, verificationLimit, verificationBody, verificationRoute((token) => lookUpVerification(database.db, token), 'look-up'));
  app.post(VERIFICATION_CONFIRM_PATH, verificationLimit, verificationBody, verificationRoute((token) => confirmVerification(database.db, token), 'confirmation'));

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
