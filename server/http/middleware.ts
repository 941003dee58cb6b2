/*
 * The middleware every API route shares, defined once (DESIGN.md §2). Every `POST` route of the API
 * checks a request in this order, each step answering before anything after it runs:
 * 1. {@link ApiMiddleware.origin}: a foreign `Origin` → 403; a preflight (`OPTIONS`) is answered here;
 * 2. on the verification calls, their rate limit per client → 429;
 * 3. {@link ApiMiddleware.jsonContentType}: not `application/json` → 415;
 * 4. on submissions, the `Idempotency-Key`'s shape → 400, then submissions under way per client → 429;
 * 5. {@link ApiMiddleware.jsonBody}: over the route's limit → 413; a body not received whole or not
 *    JSON → 400;
 * 6. the route's schema → 400, then the database.
 * Every check that reads only headers comes before the body is read: the content type decides 415
 * before a chunked body is read to count its size (spec §7.1 asks for JSON; RFC 9110 §15.5.14 and
 * §15.5.16 set no order between 413 and 415).
 */
import type { Context, Env, ErrorHandler, Handler, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { DATABASE_ANSWER_TIMEOUT_MS, DATABASE_UNAVAILABLE_RETRY_AFTER_S } from '../limits.ts';
import { clientKeyOf, peerAddressOf } from './clientAddress.ts';
import { refusalLogOf, type AppOptions } from './options.ts';

/** What the shared middleware puts in a request's context (`c.var`) for the route's handler. */
export type ApiEnv = {
  Variables: {
    /** the client every per-client limit counts: its IPv4 address, or its IPv6 /64 (server/http/clientAddress.ts) */
    clientKey: string;
    /** the request's body, parsed as JSON, of any shape: the route checks it against its schema */
    body: unknown;
  };
};

/** The statuses an API route answers with a JSON `{ error }`. */
export type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 410 | 413 | 415 | 409 | 422 | 429 | 500 | 503;

/** `application/json`, with an optional `charset=utf-8` (RFC 8259 §8.1: JSON is UTF-8), case-insensitive. */
const JSON_CONTENT_TYPE = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;

/** A JSON `{ error }` answer with `status`. */
export function problem(c: Context, status: ProblemStatus, error: string): Response {
  return c.json({ error }, status);
}

/**
 * Every `/api/*` answer is data for the page that asked: never sniffed as another type, never cached.
 * Set before the answer is made, so every `c.json`/`c.body` of a route (and of the error handler) carries them.
 */
export const apiHeaders: MiddlewareHandler = async (c, next) => {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Cache-Control', 'no-store');
  await next();
};

/**
 * A path that is not valid percent-encoding (`/%E0%A4%A`) is the client's error (400), never the server's:
 * JSON `{ error }` under `/api/`, as every API answer, plain text elsewhere.
 */
export const wellFormedUrl: MiddlewareHandler = async (c, next) => {
  try {
    decodeURIComponent(new URL(c.req.url).pathname);
  } catch {
    const error = 'Bad request: the URL is not valid percent-encoding';
    return c.req.path.startsWith('/api/') ? c.json({ error }, 400) : c.text(error, 400);
  }
  await next();
};

/**
 * A route that exists, asked with a method it does not take: 405 `{ error: 'Use <first method>' }` with
 * `Allow` listing the methods it takes (RFC 9110 §15.5.6: a 405 carries `Allow`).
 * @param methods - what the route answers, in the order `Allow` names them
 */
export const onlyMethods =
  (...methods: [string, ...string[]]): Handler =>
  (c) => {
    c.header('Allow', methods.join(', '));
    return problem(c, 405, `Use ${methods[0]}`);
  };

/** A route's `POST` is its only method: anything else (`OPTIONS` is answered before) is 405 with `Allow`. */
export const onlyPost: Handler = onlyMethods('POST', 'OPTIONS');

/**
 * Every path `app` routes answers the methods it has no handler for with {@link onlyMethods}, naming those it
 * has (`HEAD` with `GET`, which Hono answers by the GET handler), instead of falling through to the API's 404.
 * Call it once every route is added: it reads `app.routes`.
 * @returns `app`, with one `all` handler per routed path
 */
export function answerOtherMethods<E extends Env>(app: Hono<E>): Hono<E> {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of app.routes) {
    if (method === 'ALL') continue;
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(path, methods);
  }
  for (const [path, methods] of byPath) app.all(path, onlyMethods(...([...methods] as [string, ...string[]])));
  return app;
}

/** Any other path under `/api/`: 404 `{ error: 'Not found' }`, never the site's page. */
export const apiNotFound: Handler = (c) => c.json({ error: 'Not found' }, 404);

/**
 * The error handler of the whole app: an `HTTPException` is answered with its own response (hono/timeout's
 * on the team's calls: server/http/team/index.ts); an error no route answered is logged (its type, code and
 * stack, never a request's content: server/logger.ts) and answered 500, as JSON under `/api/`. Under
 * `/api/`, a database that cannot be reached for now (server/db/unavailable.ts `isDatabaseUnavailable`:
 * a connection refused or lost, a server shutting down, a closed PGlite) is answered 503 with
 * `Retry-After` ({@link DATABASE_UNAVAILABLE_RETRY_AFTER_S}) and `{ error }` instead, logged at warn:
 * every route that lets the database's error through (all of `/api/team/*`) answers so.
 */
export function answerError(logger: AppOptions['logger']): ErrorHandler {
  return (error, c) => {
    // its own response as it was made (getResponse() would wrap its body in a new one, which a header the
    // route still sets afterwards, a cookie, would make Hono build again from a body already being sent)
    if (error instanceof HTTPException) return error.res ?? error.getResponse();
    if (c.req.path.startsWith('/api/') && isDatabaseUnavailable(error)) {
      logger.warn({ err: error, method: c.req.method, status: 503 }, 'the database is not available');
      c.header('Retry-After', String(DATABASE_UNAVAILABLE_RETRY_AFTER_S));
      return problem(c, 503, 'The database is not available; try again in a few seconds');
    }
    logger.error({ err: error, method: c.req.method }, 'unhandled error');
    return c.req.path.startsWith('/api/') ? problem(c, 500, 'Internal server error') : c.text('Internal server error', 500);
  };
}

/** The middleware of {@link apiMiddleware}, configured once for the app. */
export interface ApiMiddleware {
  /**
   * 403 `{ error: 'Origin not allowed' }` when an `Origin` header names neither the public origin nor
   * one of `allowedOrigins`; otherwise CORS for those origins (hono/cors): a preflight is answered 204
   * for `POST` with `Content-Type` and `Idempotency-Key`, cached 10 minutes. Two middlewares, in this
   * order, for `use(path, ...origin)` (hono/combine's `every` would cost a compose per request).
   */
  origin: [MiddlewareHandler, MiddlewareHandler];
  /** Sets `c.var.clientKey` (server/http/clientAddress.ts), from `X-Forwarded-For` only behind trusted proxies. */
  clientAddress: MiddlewareHandler<ApiEnv>;
  /** 415 `{ error }` unless the `Content-Type` is {@link JSON_CONTENT_TYPE}. */
  jsonContentType: MiddlewareHandler<ApiEnv>;
  /**
   * The one JSON-body reader: 413 `{ error: 'Body is larger than <maxBytes> bytes' }` over `maxBytes`;
   * 400 when the body was not received whole (the client went away, or Node cut a body trickled past
   * `REQUEST_TIMEOUT_MS`: logged at info as `<what> body not received whole`, through the refusal log,
   * once per kind and interval) or is not JSON; else
   * sets `c.var.body`. With a `Content-Length` (what browsers send) the header decides, Node having
   * made it the body's exact length; a chunked body goes through hono/body-limit, which counts it as
   * it streams. (hono/body-limit reads `c.req.raw.body`, which makes the Node adapter build a whole Web
   * Request around every body: measured under load, 0.62–0.68 ms of server CPU per submission with it,
   * 0.32–0.45 ms without.)
   * @param maxBytes - the route's limit, in bytes (`MAX_BODY_BYTES`, `VERIFICATION_BODY_MAX_BYTES`, `TEAM_AUTH_BODY_MAX_BYTES`)
   * @param what - the body's name in the log line
   */
  jsonBody: (maxBytes: number, what: 'submission' | 'verification' | 'team sign-in' | 'team decision') => MiddlewareHandler<ApiEnv>;
  /** 503 with `Retry-After: 1`, logged at warn: the database did not answer within {@link ApiMiddleware.databaseTimeoutMs}. */
  databaseTooSlow: (c: Context) => Response;
  /** how long a request waits for the database before 503, in ms (`DATABASE_ANSWER_TIMEOUT_MS`, server/limits.ts) */
  databaseTimeoutMs: number;
}

/**
 * The middleware every API route shares, configured from the app's options: Origin and CORS, the
 * client's address, the content type, the JSON body, and the answer to a database too slow.
 * @param options - `publicOrigin` and `allowedOrigins` (Origin), `trustProxy` and `trustedProxyHops`
 *   (client address), `databaseTimeoutMs`, `logger`
 */
export function apiMiddleware(options: AppOptions): ApiMiddleware {
  const { logger } = options;
  const refusals = refusalLogOf(options);
  const publicOrigin = typeof options.publicOrigin === 'string' ? () => options.publicOrigin as string : options.publicOrigin;
  const { allowedOrigins } = options;
  const moreOrigins = typeof allowedOrigins === 'function' ? allowedOrigins : () => allowedOrigins;
  const isAllowedOrigin = (origin: string): boolean => origin === publicOrigin() || (moreOrigins()?.includes(origin) ?? false);
  const proxies = { trustProxy: options.trustProxy ?? false, hops: options.trustedProxyHops ?? 1 };

  const refuseForeignOrigin: MiddlewareHandler = async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedOrigin(origin)) {
      refusals.refused({ status: 403, path: c.req.path }, 'request refused: origin not allowed');
      return problem(c, 403, 'Origin not allowed');
    }
    await next();
  };
  const preflight = cors({
    origin: (origin) => (isAllowedOrigin(origin) ? origin : null),
    allowMethods: ['POST'],
    allowHeaders: ['content-type', 'idempotency-key'],
    maxAge: 600,
  });
  // A preflight (`OPTIONS`) is hono/cors's. On any other request its headers are set here, before the
  // answer is made, as apiHeaders' are: hono/cors adds `Vary` once the answer is made, and a header added
  // then makes Hono make the answer again around a stream of its body, which @hono/node-server writes out
  // on its slow path (an undici Response and a stream reader per answer).
  const allowOrigins: MiddlewareHandler = async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    const origin = c.req.header('origin');
    if (origin !== undefined && isAllowedOrigin(origin)) c.header('Access-Control-Allow-Origin', origin);
    c.header('Vary', 'Origin', { append: true });
    await next();
  };

  const jsonBody = (maxBytes: number, what: 'submission' | 'verification' | 'team sign-in' | 'team decision') => {
    const tooLarge = (c: Context) => problem(c, 413, `Body is larger than ${maxBytes} bytes`);
    const countStreamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
    const counted = async () => {};
    return createMiddleware<ApiEnv>(async (c, next) => {
      let text: string;
      try {
        const length = c.req.header('content-length');
        if (length === undefined || c.req.header('transfer-encoding') !== undefined) {
          // bodyLimit reads a chunked body whole before it answers: a client gone midway throws here
          const refused = await countStreamed(c, counted);
          if (refused) return refused;
        } else if (Number(length) > maxBytes) {
          return tooLarge(c);
        }
        text = await c.req.text();
      } catch (error) {
        refusals.refused({ status: 400, path: c.req.path, err: error }, `${what} body not received whole`);
        return problem(c, 400, 'Body was not received whole');
      }
      try {
        c.set('body', JSON.parse(text) as unknown);
      } catch {
        return problem(c, 400, 'Body is not valid JSON');
      }
      await next();
    });
  };

  return {
    origin: [refuseForeignOrigin, allowOrigins],
    clientAddress: createMiddleware<ApiEnv>(async (c, next) => {
      c.set('clientKey', clientKeyOf(peerAddressOf(c, proxies)));
      await next();
    }),
    jsonContentType: createMiddleware<ApiEnv>(async (c, next) => {
      if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) return problem(c, 415, 'Content-Type must be application/json');
      await next();
    }),
    jsonBody,
    databaseTooSlow: (c) => {
      c.header('Retry-After', '1');
      logger.warn({ status: 503 }, 'the database did not answer in time');
      return problem(c, 503, 'The database did not answer in time; try again in a second');
    },
    databaseTimeoutMs: options.databaseTimeoutMs ?? DATABASE_ANSWER_TIMEOUT_MS,
  };
}
