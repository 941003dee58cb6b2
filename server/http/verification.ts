import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { rateLimiter } from 'hono-rate-limiter';
import { z } from 'zod';
import { UNKNOWN_LINK_ERROR, VERIFICATION_CONFIRM_PATH, VERIFICATION_LOOKUP_PATH, type VerificationAnswer } from '#shared/verification';
import { DeadlineError, withDeadline } from '../db/deadline.ts';
import { confirmVerification, lookUpVerification } from '../db/verificationLinks.ts';
import { VERIFICATION_BODY_MAX_BYTES, VERIFICATION_CALLS_PER_MINUTE } from '../limits.ts';
import { JSON_CONTENT_TYPE, type Api, type AppEnv } from './api.ts';

/** The verification link's look-up and confirmation (11 CCR §7060), as {@link createApp} describes their answers. */
export function addVerificationRoutes(app: Hono<AppEnv>, { logger, database, problem, databaseTooSlow, readJson, clientKey, databaseTimeoutMs }: Api): void {
  // The verification link of a privacy request (11 CCR §7060): a look-up that changes nothing, and the
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
}
