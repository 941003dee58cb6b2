import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { MAX_BODY_BYTES, submissionKind } from '#shared/submission';
import { DeadlineError, withDeadline } from '../db/deadline.ts';
import { createSubmissionWriter } from '../db/groupCommit.ts';
import { isDataException } from '../db/submissions.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import {
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  MAX_CONCURRENT_SUBMISSIONS,
  MAX_SUBMISSIONS_PER_CLIENT,
  RATE_LIMIT_WINDOW_MS,
} from '../limits.ts';
import type { SubmissionLabels, SubmissionRefusal } from '../metrics.ts';
import { onlyPost, problem, type ApiEnv, type ApiMiddleware } from './middleware.ts';
import { refusalLogOf, type AppOptions } from './options.ts';
import { checkSubmissionBody } from './submissionSchema.ts';

/** The refusals the shared middleware answers before the route knows the body's kind, by status (server/http/middleware.ts). */
const REFUSAL_BY_STATUS: Partial<Record<number, SubmissionRefusal>> = {
  400: 'invalid',
  403: 'origin',
  413: 'too_large',
  415: 'content_type',
  503: 'database_unavailable',
};

/**
 * `POST /api/submissions` (spec §7.1), mounted at `SUBMISSIONS_PATH`, after the shared checks of
 * server/http/middleware.ts (Origin 403, content type 415, size 413 over `MAX_BODY_BYTES`, JSON 400):
 * 201 `{ ok: true, id }` once the row is committed (`Idempotent-Replayed: true` for a repeat of a
 * stored `Idempotency-Key` with the same body); 400 naming the first problem of the body
 * (server/http/submissionSchema.ts), or for an `Idempotency-Key` not of 1 to
 * `IDEMPOTENCY_KEY_MAX_LENGTH` characters, or a value the database cannot store (SQLSTATE class 22);
 * 422 for a stored key with another body; 429 with `Retry-After` past `rateLimitPerMinute` (counted in
 * the database) or when the client address already has `MAX_SUBMISSIONS_PER_CLIENT` submissions under way;
 * 503 with `Retry-After: 1` when `MAX_CONCURRENT_SUBMISSIONS` are being stored or the database does
 * not answer within `DATABASE_ANSWER_TIMEOUT_MS`; 500 `{ error: 'Submission could not be stored' }`
 * when the database fails; 405 for any method but POST and OPTIONS. With the metrics on, each POST is
 * counted by kind and outcome, a refusal with its reason (server/metrics.ts `sonde_submissions_total`).
 * @param options - `database`, `logger`, `outbox`, `rateLimitPerMinute`, `maxConcurrentSubmissions`,
 *   `maxSubmissionsPerClient`, `now`
 * @param api - the shared middleware (server/http/middleware.ts)
 * @returns the route as a Hono sub-app, its path `/`
 */
export function submissionRoutes(options: AppOptions, api: ApiMiddleware): Hono<ApiEnv> {
  const { logger, metrics } = options;
  const refusals = refusalLogOf(options);
  const rateLimit = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const now = options.now ?? (() => new Date());
  const maxInFlight = options.maxConcurrentSubmissions ?? MAX_CONCURRENT_SUBMISSIONS;
  const maxPerClient = options.maxSubmissionsPerClient ?? MAX_SUBMISSIONS_PER_CLIENT;
  let inFlight = 0;
  /** submissions under way (body arriving, or being stored), by client address */
  const underWay = new Map<string, number>();
  const writer = createSubmissionWriter(options.database.db, {
    limitPerWindow: rateLimit,
    windowMs: RATE_LIMIT_WINDOW_MS,
    announce: options.outbox?.webhook ?? false,
    mail: { requester: options.outbox?.requesterMail ?? false, team: options.outbox?.teamMail ?? false },
  });

  // The metrics' outcome of each POST (server/metrics.ts `sonde_submissions_total`): what the route told
  // apart where it answered; else, for an answer of the shared middleware, read from its status.
  const outcomes = new WeakMap<Context, SubmissionLabels>();
  const countOutcome = createMiddleware<ApiEnv>(async (c, next) => {
    await next();
    if (!metrics || c.req.method !== 'POST') return;
    metrics.submission(outcomes.get(c) ?? { kind: 'unknown', outcome: 'refused', reason: REFUSAL_BY_STATUS[c.res.status] ?? 'error' });
  });
  const refused = (c: Context, kind: SubmissionLabels['kind'], reason: SubmissionRefusal) => void outcomes.set(c, { kind, outcome: 'refused', reason });

  const idempotencyKeyShape = createMiddleware<ApiEnv>(async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key !== undefined && (key.trim() === '' || key.length > IDEMPOTENCY_KEY_MAX_LENGTH)) {
      return problem(c, 400, `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
    }
    await next();
  });
  // Counted per address from before the body is read until the answer: one address cannot hold what other
  // visitors need, however slowly it sends (each request is cut at REQUEST_TIMEOUT_MS) and however many
  // submissions past its rate limit it sends (each waits for the database to count it).
  const submissionsPerClient = createMiddleware<ApiEnv>(async (c, next) => {
    const client = c.var.clientKey;
    const sending = underWay.get(client) ?? 0;
    if (sending >= maxPerClient) {
      refused(c, 'unknown', 'too_many_under_way');
      c.header('Retry-After', '1');
      refusals.refused({ status: 429 }, 'submission refused: too many submissions under way from one address');
      return problem(c, 429, 'Too many submissions under way from your address; try again in a second');
    }
    underWay.set(client, sending + 1);
    try {
      await next();
    } finally {
      const left = (underWay.get(client) ?? 1) - 1;
      if (left === 0) underWay.delete(client);
      else underWay.set(client, left);
    }
  });

  return new Hono<ApiEnv>()
    .use('/', countOutcome, ...api.origin)
    .post(
      '/',
      api.jsonContentType,
      idempotencyKeyShape,
      api.clientAddress,
      submissionsPerClient,
      api.jsonBody(MAX_BODY_BYTES, 'submission'),
      async (c) => {
        const checked = checkSubmissionBody(c.var.body, now());
        if (!checked.ok) return problem(c, 400, checked.problem);
        const kind = submissionKind(checked.body.data);
        // Counted only from here, once the body is whole: what the database is working on.
        if (inFlight >= maxInFlight) {
          refused(c, kind, 'busy');
          c.header('Retry-After', '1');
          return problem(c, 503, 'Too many submissions at once; try again in a second');
        }
        // Counted until the database has answered, even when the visitor was answered 503 before.
        inFlight += 1;
        const storing = writer
          .accept({ body: checked.body, idempotencyKey: c.req.header('idempotency-key') ?? null, clientIp: c.var.clientKey })
          .finally(() => {
            inFlight -= 1;
          });
        try {
          const outcome = await withDeadline(storing, api.databaseTimeoutMs);
          switch (outcome.status) {
            case 'stored':
              outcomes.set(c, { kind, outcome: 'stored' });
              logger.info({ submissionId: outcome.id, kind: outcome.kind }, 'submission stored');
              // Only a submission that wrote a delivery wakes the sender: each wake-up is a claim statement, and
              // a flood of requests the mail limits leave unacknowledged would otherwise keep it claiming nothing.
              if (outcome.queued) options.outbox?.kick();
              return c.json({ ok: true, id: outcome.id }, 201);
            case 'replayed':
              // A repeat of a stored submission answers what the first answered.
              outcomes.set(c, { kind, outcome: 'replayed' });
              c.header('Idempotent-Replayed', 'true');
              return c.json({ ok: true, id: outcome.id }, 201);
            case 'conflict':
              refused(c, kind, 'conflict');
              return problem(c, 422, 'Idempotency-Key was already used with a different body');
            case 'limited':
              refused(c, kind, 'rate_limited');
              c.header('Retry-After', String(outcome.retryAfterSeconds));
              refusals.refused({ status: 429 }, 'submission refused: rate limit');
              return problem(c, 429, `More than ${rateLimit} submissions in a minute; try again in ${outcome.retryAfterSeconds} s`);
          }
        } catch (error) {
          if (error instanceof DeadlineError) {
            refused(c, kind, 'database_slow');
            // what it does later is logged here; a retry with the same key is answered as a replay
            storing.then(
              () => logger.warn('a submission answered 503 (database too slow) was stored after all'),
              (late: unknown) => logger.error({ err: late }, 'submission could not be stored'),
            );
            return api.databaseTooSlow(c);
          }
          // SQLSTATE class 22, data exception: a value the schema let through and the database cannot
          // store is the client's error; retrying it would never succeed.
          if (isDataException(error)) {
            refused(c, kind, 'invalid');
            logger.warn({ err: error }, 'submission refused by the database: a value it cannot store');
            return problem(c, 400, 'Body holds a value that cannot be stored');
          }
          // A database that cannot be reached for now: the app's one answer for it (503, Retry-After).
          if (isDatabaseUnavailable(error)) {
            refused(c, kind, 'database_unavailable');
            throw error;
          }
          refused(c, kind, 'error');
          logger.error({ err: error }, 'submission could not be stored');
          return problem(c, 500, 'Submission could not be stored');
        }
      },
    )
    .all('/', onlyPost);
}
