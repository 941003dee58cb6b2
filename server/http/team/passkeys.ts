import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { Hono, type Context } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { z } from 'zod';
import { audit } from '../../db/team.ts';
import { serializeError } from '../../logger.ts';
import { enrollingMember, endSession, findPasskey, keepChallenge, passkeyUsed, registerPasskey, startSession, spendChallenge } from '../../db/teamSessions.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { PASSKEY_CREDENTIAL_ID_MAX_LENGTH, TEAM_AUTH_ATTEMPTS_PER_MINUTE, TEAM_AUTH_BODY_MAX_BYTES, TEAM_CHALLENGE_TTL_MS } from '../../limits.ts';
import { problem, type ApiMiddleware } from '../middleware.ts';
import type { SignInFailure } from '../../metrics.ts';
import { refusalLogOf, type AppOptions } from '../options.ts';
import type { TeamContext, TeamEnv } from './session.ts';

/** The name of the relying party a passkey dialog shows. */
const RP_NAME = 'Sonde team';

/** The one answer to an enrollment link unknown, used or expired (no oracle: the three are not told apart). */
const ENROLLMENT_GONE_ERROR = 'This enrollment link is not valid: it was used, it expired, or it never existed. Ask for a new one (team link).';

/** The one answer to a failed sign-in, whatever failed. */
const SIGN_IN_FAILED_ERROR = 'Sign-in failed';

/** A WebAuthn response as the browser's JSON (`@simplewebauthn/browser`): shape-checked here (its id base64url, as WebAuthn L3 §5.1 gives it), every field checked by the library. */
const credentialJson = z.looseObject({
  id: z.string().max(PASSKEY_CREDENTIAL_ID_MAX_LENGTH).regex(/^[A-Za-z0-9_-]+$/),
  response: z.looseObject({}),
});
const enrollBody = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const enrollVerifyBody = enrollBody.extend({ response: credentialJson });
const signInVerifyBody = z.object({ challengeId: z.uuid(), response: credentialJson });

/** Why the library refused a response, its quoted values masked (server/logger.ts `serializeError`), at most 200 characters. */
function reasonOf(error: unknown): string {
  return (serializeError(error).message ?? 'unknown').slice(0, 200);
}

/**
 * The passkey ceremonies of the team's console (WebAuthn Level 3, `@simplewebauthn/server`), and its
 * session. Relying party: `rpID` the public origin's host name, `expectedOrigin` the public origin.
 * Every route checks the `Origin` (403, {@link TeamContext.sameOrigin}); the four ceremony calls are
 * limited to `TEAM_AUTH_ATTEMPTS_PER_MINUTE` per client address together (429 with `Retry-After`), take
 * `application/json` (415) of at most `TEAM_AUTH_BODY_MAX_BYTES` (413), and answer 400 for a body of
 * another shape. Paths are relative to `/api/team`:
 * - `POST /enroll/options` `{ token }` → 200 `{ options }` (PublicKeyCredentialCreationOptionsJSON:
 *   attestation `none`, resident key and user verification required, the member's passkeys excluded);
 *   410 {@link ENROLLMENT_GONE_ERROR} for a link unknown, used or expired;
 * - `POST /enroll/verify` `{ token, response }` (RegistrationResponseJSON) → 200 `{ email, name }` and
 *   the session cookie: the passkey stored and the link used, in one transaction that re-checks it; 410 as
 *   above (also when another registration used the link meanwhile); 400 when the response does not
 *   verify (challenge, origin, RP ID, user verification);
 * - `POST /signin/options` → 200 `{ options, challengeId }` (PublicKeyCredentialRequestOptionsJSON,
 *   discoverable: no `allowCredentials`; user verification required);
 * - `POST /signin/verify` `{ challengeId, response }` (AuthenticationResponseJSON) → 200 `{ email, name }`
 *   and the session cookie; 401 {@link SIGN_IN_FAILED_ERROR} for an unknown or removed member's passkey,
 *   a challenge unknown, used or past `TEAM_CHALLENGE_TTL_MS`, a user handle not the passkey's, a bad
 *   signature or user verification absent, audited as `sign-in failed`;
 * - `POST /signout` (a session needed, 401 without) → 204, the session deleted and the cookie cleared;
 * - `GET /session` → 200 `{ email, name }` of the signed-in member; 204 without a live session (asking is no
 *   failure: the console's page asks on every visit, and a signed-out visit logs no failed request).
 * Audited (server/db/team.ts `audit`, member id and time): passkey registered, signed in, sign-in
 * failed, signed out; with the metrics on, sign-ins and failed sign-ins are counted (server/metrics.ts). Log lines carry a status and a path, never an email, a token or a credential.
 * @param team - the relying party and shared checks (./session.ts)
 */
export function passkeyRoutes(options: AppOptions, api: ApiMiddleware, team: TeamContext): Hono<TeamEnv> {
  const { database, logger, metrics } = options;
  const refusals = refusalLogOf(options);
  const db = database.db;
  const attempts = rateLimiter<TeamEnv>({
    windowMs: 60_000,
    limit: options.teamAuthAttemptsPerMinute ?? TEAM_AUTH_ATTEMPTS_PER_MINUTE,
    keyGenerator: (c) => c.var.clientKey,
    handler: (c) => {
      refusals.refused({ status: 429 }, 'team sign-in refused: rate limit');
      return problem(c, 429, 'Too many attempts from your address; try again in a minute');
    },
  });
  const ceremony = [team.sameOrigin, api.clientAddress, attempts] as const;
  const withBody = [...ceremony, api.jsonContentType, api.jsonBody(TEAM_AUTH_BODY_MAX_BYTES, 'team sign-in')] as const;
  const gone = (c: Context) => problem(c, 410, ENROLLMENT_GONE_ERROR);
  /**
   * What both enrollment routes do first: the body read by `schema` (400, "Body must be `shape`", when it
   * does not fit), then the member whose enrollment token it carries (410 when the link is spent, expired
   * or unknown). Returns the parsed body, the member and the time, or the answer to send.
   */
  const enrolling = async <T extends { token: string }>(c: Context, schema: z.ZodType<T>, shape: string) => {
    const body = schema.safeParse(c.var.body);
    if (!body.success) return problem(c, 400, `Body must be ${shape}`);
    const now = team.now();
    const member = await enrollingMember(db, body.data.token, now);
    if (!member) return gone(c);
    return { body: body.data, member, now };
  };
  const signedIn = (c: Context, token: string, member: { email: string; name: string | null }) => {
    team.setSessionCookie(c, token);
    return c.json({ email: member.email, name: member.name }, 200);
  };

  return new Hono<TeamEnv>()
    .post('/enroll/options', ...withBody, async (c) => {
      const start = await enrolling(c, enrollBody, '{ "token": string }');
      if (start instanceof Response) return start;
      const { member, now } = start;
      const creation = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: team.rpID(),
        userName: member.email,
        userDisplayName: member.name ?? member.email,
        userID: new Uint8Array(Buffer.from(member.webauthnUserId, 'base64url')),
        attestationType: 'none',
        excludeCredentials: member.passkeys.map((p) => ({ id: p.id, transports: p.transports ?? undefined })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: TEAM_CHALLENGE_TTL_MS,
      });
      await keepChallenge(db, { challenge: creation.challenge, purpose: 'enroll', memberId: member.id, now });
      return c.json({ options: creation }, 200);
    })
    .post('/enroll/verify', ...withBody, async (c) => {
      const start = await enrolling(c, enrollVerifyBody, '{ "token": string, "response": RegistrationResponseJSON }');
      if (start instanceof Response) return start;
      const { body, member, now } = start;
      const verified = await verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge: (challenge) => spendChallenge(db, { challenge, purpose: 'enroll', memberId: member.id, now }),
        expectedOrigin: team.origin(),
        expectedRPID: team.rpID(),
        requireUserVerification: true,
      }).catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) throw error; // 503 (server/http/middleware.ts answerError), not a refused passkey
        refusals.refused({ status: 400, reason: reasonOf(error) }, 'team passkey refused');
        return undefined;
      });
      if (!verified?.verified) return problem(c, 400, 'The passkey could not be registered; start again from the link');
      const { credential } = verified.registrationInfo;
      const stored = await registerPasskey(db, { token: body.token, memberId: member.id, id: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports ?? null, now });
      if (!stored) return gone(c);
      await audit(db, { at: now, memberId: member.id, action: 'passkey registered', detail: 'console' });
      const token = await startSession(db, member.id, now);
      await audit(db, { at: now, memberId: member.id, action: 'signed in', detail: 'enrollment' });
      logger.info({ status: 200 }, 'team passkey registered');
      metrics?.teamSignIn('enrollment');
      return signedIn(c, token, member);
    })
    .post('/signin/options', ...ceremony, async (c) => {
      const now = team.now();
      const request = await generateAuthenticationOptions({ rpID: team.rpID(), userVerification: 'required', timeout: TEAM_CHALLENGE_TTL_MS });
      const challengeId = await keepChallenge(db, { challenge: request.challenge, purpose: 'signin', memberId: null, now });
      return c.json({ options: request, challengeId }, 200);
    })
    .post('/signin/verify', ...withBody, async (c) => {
      const body = signInVerifyBody.safeParse(c.var.body);
      if (!body.success) return problem(c, 400, 'Body must be { "challengeId": uuid, "response": AuthenticationResponseJSON }');
      const now = team.now();
      const failed = async (memberId: string | null, reason: SignInFailure, why: string) => {
        metrics?.teamSignInFailed(reason);
        await audit(db, { at: now, memberId, action: 'sign-in failed', detail: why });
        refusals.refused({ status: 401, reason: why }, 'team sign-in refused');
        return problem(c, 401, SIGN_IN_FAILED_ERROR);
      };
      const response = body.data.response as unknown as AuthenticationResponseJSON;
      const passkey = await findPasskey(db, response.id);
      if (!passkey) return failed(null, 'unknown_passkey', 'unknown passkey');
      if (response.response.userHandle !== passkey.member.webauthnUserId) return failed(passkey.member.id, 'user_handle', 'user handle not the passkey’s');
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (challenge) => spendChallenge(db, { challenge, purpose: 'signin', id: body.data.challengeId, now }),
        expectedOrigin: team.origin(),
        expectedRPID: team.rpID(),
        credential: { id: passkey.id, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports ?? undefined },
        requireUserVerification: true,
      }).catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) throw error; // 503, not a failed sign-in
        return { verified: false as const, error };
      });
      if (!verified.verified) {
        return failed(passkey.member.id, 'response_refused', `response refused: ${'error' in verified ? reasonOf(verified.error) : 'signature'}`);
      }
      await passkeyUsed(db, passkey.id, 'authenticationInfo' in verified ? verified.authenticationInfo.newCounter : passkey.counter, now);
      const token = await startSession(db, passkey.member.id, now);
      await audit(db, { at: now, memberId: passkey.member.id, action: 'signed in', detail: 'passkey' });
      logger.info({ status: 200 }, 'team member signed in');
      metrics?.teamSignIn('passkey');
      return signedIn(c, token, passkey.member);
    })
    .post('/signout', team.sameOrigin, team.session, async (c) => {
      const memberId = await endSession(db, c.var.sessionToken);
      await audit(db, { at: team.now(), memberId: memberId ?? c.var.member.id, action: 'signed out', detail: 'console' });
      team.clearSessionCookie(c);
      return c.body(null, 204);
    })
    .get('/session', team.sameOrigin, async (c) => {
      const live = await team.liveSession(c);
      return live ? c.json({ email: live.member.email, name: live.member.name }, 200) : c.body(null, 204);
    });
}
