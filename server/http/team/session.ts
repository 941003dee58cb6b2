/*
 * What every call of the team's API (`/api/team/*`) shares: the relying party, taken from the public
 * origin of the configuration (never from a request header); the same-origin check; the session cookie
 * and the middleware that requires a session.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { touchSession, type SessionMember } from '../../db/teamSessions.ts';
import { TEAM_SESSION_MAX_MS } from '../../limits.ts';
import { problem, type ApiEnv } from '../middleware.ts';
import { refusalLogOf, type AppOptions } from '../options.ts';

/** What the team's middleware puts in a request's context, on top of {@link ApiEnv}. */
export type TeamEnv = {
  Variables: ApiEnv['Variables'] & {
    /** the signed-in member (set by {@link TeamContext.session}) */
    member: SessionMember;
    /** the session's token, as the cookie carries it */
    sessionToken: string;
  };
};

/** The session cookie's name without its prefix: the browser holds `__Host-sonde_team`. */
const SESSION_COOKIE = 'sonde_team';

/** A session token as {@link startSession} makes it: 32 bytes, base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The relying party, the clock and the shared checks of every team route. */
export interface TeamContext {
  /** the public origin (`expectedOrigin` of every ceremony), e.g. `https://sonde.dev` */
  origin: () => string;
  /** the RP ID: the public origin's host name, e.g. `sonde.dev` */
  rpID: () => string;
  /** the server's clock (AppOptions `now`; tests fix it) */
  now: () => Date;
  /**
   * 403 `{ error: 'Origin not allowed' }` unless the `Origin` header is exactly the public origin
   * (`SONDE_ALLOWED_ORIGINS` is not accepted here). A `GET` without `Origin` (browsers send none on a
   * same-origin `GET`) passes only when `Sec-Fetch-Site` is absent or `same-origin`; a `POST` without
   * one is refused. Logged at info with the path only.
   */
  sameOrigin: MiddlewareHandler;
  /**
   * 401 `{ error: 'Sign in first' }` without the `__Host-sonde_team` cookie of a session still going
   * (not idle past `TEAM_SESSION_IDLE_MS`, not past `TEAM_SESSION_MAX_MS`, its member not removed);
   * otherwise the session's idle time starts again and `c.var.member` is set.
   */
  session: MiddlewareHandler<TeamEnv>;
  /**
   * The live session the request's cookie names, started again from now (its idle limit); undefined when
   * there is none or it passed a limit (the stale cookie is then cleared). What `session` checks, and
   * what `GET /session` answers without refusing.
   */
  liveSession: (c: Context) => Promise<{ member: SessionMember; token: string } | undefined>;
  /** Sets the session cookie: `__Host-` (so `Secure`, `Path=/`, no `Domain`), `HttpOnly`, `SameSite=Strict`, `Max-Age` of `TEAM_SESSION_MAX_MS`. */
  setSessionCookie: (c: Context, token: string) => void;
  /** Clears the session cookie. */
  clearSessionCookie: (c: Context) => void;
}

/**
 * The team routes' shared checks, configured from the app's options.
 * @param options - `publicOrigin` (string, or a function once the server listens), `database`, `refusals` (else `logger`), `now`
 */
export function teamContext(options: AppOptions): TeamContext {
  const { database } = options;
  const refusals = refusalLogOf(options);
  const origin = typeof options.publicOrigin === 'string' ? () => options.publicOrigin as string : options.publicOrigin;
  const now = options.now ?? (() => new Date());
  const liveSession = async (c: Context) => {
    const token = getCookie(c, SESSION_COOKIE, 'host');
    const member = token !== undefined && TOKEN_SHAPE.test(token) ? await touchSession(database.db, token, now()) : undefined;
    if (member) return { member, token: token! };
    if (token !== undefined) deleteCookie(c, SESSION_COOKIE, { prefix: 'host', path: '/', secure: true });
    return undefined;
  };
  return {
    origin,
    rpID: () => new URL(origin()).hostname,
    now,
    sameOrigin: async (c, next) => {
      const sent = c.req.header('origin');
      const safe = c.req.method === 'GET' || c.req.method === 'HEAD';
      const same = sent === undefined ? safe && (c.req.header('sec-fetch-site') ?? 'same-origin') === 'same-origin' : sent === origin();
      if (!same) {
        refusals.refused({ status: 403, path: c.req.path }, 'team call refused: origin not allowed');
        return problem(c, 403, 'Origin not allowed');
      }
      await next();
    },
    session: createMiddleware<TeamEnv>(async (c, next) => {
      const live = await liveSession(c);
      if (!live) {
        refusals.refused({ status: 401, path: c.req.path }, 'team call refused: no session');
        return problem(c, 401, 'Sign in first');
      }
      c.set('member', live.member);
      c.set('sessionToken', live.token);
      await next();
    }),
    liveSession,
    setSessionCookie: (c, token) =>
      setCookie(c, SESSION_COOKIE, token, { prefix: 'host', httpOnly: true, sameSite: 'Strict', maxAge: TEAM_SESSION_MAX_MS / 1000 }),
    clearSessionCookie: (c) => deleteCookie(c, SESSION_COOKIE, { prefix: 'host', path: '/', secure: true, httpOnly: true, sameSite: 'Strict' }),
  };
}
