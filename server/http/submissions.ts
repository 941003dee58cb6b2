import { bodyLimit } from 'hono/body-limit';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { MAX_BODY_BYTES, SUBMISSIONS_PATH } from '#shared/submission';
import { DeadlineError, withDeadline } from '../db/deadline.ts';
import { createSubmissionWriter } from '../db/groupCommit.ts';
import { sqlStateOf } from '../db/submissions.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH, MAX_CONCURRENT_SUBMISSIONS, MAX_UPLOADS_PER_CLIENT, RATE_LIMIT_WINDOW_MS } from '../limits.ts';
import { JSON_CONTENT_TYPE, type Api, type AppEnv } from './api.ts';
import { checkSubmissionBody } from './submissionSchema.ts';

/** `POST /api/submissions` (spec §7.1), as {@link createApp} describes its answers. */
export function addSubmissionRoute(app: Hono<AppEnv>, { options, logger, database, problem, databaseTooSlow, readJson, clientKey, now, databaseTimeoutMs, rateLimit }: Api): void {
  const maxInFlight = options.maxConcurrentSubmissions ?? MAX_CONCURRENT_SUBMISSIONS;
  const maxUploads = options.maxUploadsPerClient ?? MAX_UPLOADS_PER_CLIENT;
  let inFlight = 0;
  /** bodies being received, by client address */
  const uploads = new Map<string, number>();
  const writer = createSubmissionWriter(database.db, {
    limitPerWindow: rateLimit,
    windowMs: RATE_LIMIT_WINDOW_MS,
    announce: options.outbox?.webhook ?? false,
    mail: { requester: options.outbox?.requesterMail ?? false, team: options.outbox?.teamMail ?? false },
  });

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
}
