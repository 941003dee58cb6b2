import { Hono } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { z } from 'zod';
import { UNKNOWN_LINK_ERROR, type VerificationAnswer } from '#shared/verification';
import { DeadlineError, withDeadline } from '../db/deadline.ts';
import { confirmVerification, lookUpVerification } from '../db/verificationLinks.ts';
import { VERIFICATION_BODY_MAX_BYTES, VERIFICATION_CALLS_PER_MINUTE } from '../limits.ts';
import { onlyPost, problem, type ApiEnv, type ApiMiddleware } from './middleware.ts';
import { refusalLogOf, type AppOptions } from './options.ts';

/** The body both calls take: the token of the link, never in a URL. */
const tokenBody = z.object({ token: z.string() });

/**
 * The verification link of a privacy request (11 CCR §7060): the look-up, which changes nothing (a mail
 * scanner opening the link verifies nothing), and the confirmation, which records the verification.
 * Each is a sub-app answering `POST` at its path `/` (mounted at `VERIFICATION_LOOKUP_PATH` and
 * `VERIFICATION_CONFIRM_PATH`, shared/verification.ts), after the shared checks of
 * server/http/middleware.ts (Origin 403, content type 415, size 413 over `VERIFICATION_BODY_MAX_BYTES`,
 * JSON 400): `{ token }` → 200 `VerificationAnswer` (shared/verification.ts); 400 for a body that is not
 * `{ token: string }`; 404 `{ error: UNKNOWN_LINK_ERROR }` for a link unknown, expired or of an answered
 * request; 429 with `Retry-After` past `VERIFICATION_CALLS_PER_MINUTE` per client, both calls counted
 * together, before the content type is looked at; 503 with `Retry-After: 1` when the database does not
 * answer within `DATABASE_ANSWER_TIMEOUT_MS`; 500 when it fails; 405 for any method but POST and OPTIONS.
 * @param options - `database`, `logger`
 * @param api - the shared middleware (server/http/middleware.ts)
 * @returns the two sub-apps
 */
export function verificationRoutes(options: AppOptions, api: ApiMiddleware): { lookUp: Hono<ApiEnv>; confirm: Hono<ApiEnv> } {
  const { database, logger } = options;
  const refusals = refusalLogOf(options);
  const callsPerClient = rateLimiter<ApiEnv>({
    windowMs: 60_000,
    limit: VERIFICATION_CALLS_PER_MINUTE,
    keyGenerator: (c) => c.var.clientKey,
    handler: (c) => {
      refusals.refused({ status: 429 }, 'verification refused: rate limit');
      return problem(c, 429, 'Too many attempts from your address; try again in a minute');
    },
  });
  const route = (work: (token: string) => Promise<VerificationAnswer | null>, what: 'look-up' | 'confirmation') =>
    new Hono<ApiEnv>()
      .use('/', ...api.origin)
      .post('/', api.clientAddress, callsPerClient, api.jsonContentType, api.jsonBody(VERIFICATION_BODY_MAX_BYTES, 'verification'), async (c) => {
        const body = tokenBody.safeParse(c.var.body);
        if (!body.success) return problem(c, 400, 'Body must be { "token": string }');
        try {
          const answer = await withDeadline(work(body.data.token), api.databaseTimeoutMs);
          if (!answer) return c.json({ error: UNKNOWN_LINK_ERROR }, 404);
          if (answer.status === 'confirmed') logger.info({ status: 200 }, 'privacy request verified by its link');
          return c.json(answer, 200);
        } catch (error) {
          if (error instanceof DeadlineError) return api.databaseTooSlow(c);
          logger.error({ err: error }, `verification ${what} failed`);
          return problem(c, 500, 'The link could not be checked; try again');
        }
      })
      .all('/', onlyPost);
  return {
    lookUp: route((token) => lookUpVerification(database.db, token), 'look-up'),
    confirm: route((token) => confirmVerification(database.db, token), 'confirmation'),
  };
}
