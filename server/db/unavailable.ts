import { DeadlineError } from './deadline.ts';

// Node's codes for a connection that could not be made or was lost (ECONNREFUSED: nobody listens;
// ECONNRESET, EPIPE: dropped), and postgres.js's own (CONNECTION_CLOSED, CONNECTION_ENDED: the pool was
// ended, CONNECTION_DESTROYED, CONNECT_TIMEOUT).
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

// SQLSTATEs of a server that is not there for now (PostgreSQL, Appendix A): class 08, connection exception;
// 53300 too_many_connections; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up).
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|53300|57P0[123])$/;

// PGlite's words once it is closed (the server stopping): it has no code.
const PGLITE_CLOSED = /^PGlite is closed/;

/**
 * Whether `error` (or any of its causes: Drizzle wraps the driver's error) says the database cannot be
 * reached for now, rather than that it refused a statement: a connection refused, lost or timed out, a
 * server shutting down or starting up, too many connections, a closed PGlite, or a {@link DeadlineError}
 * (no answer in time). What the API answers 503 with `Retry-After` for (server/http/middleware.ts
 * `answerError`), since the same call may succeed later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof DeadlineError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (PGLITE_CLOSED.test(e.message)) return true;
  }
  return false;
}
