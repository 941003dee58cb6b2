// The limits of a request to the server and of its storage: size, rate, time (server/limits.ts has them all).

/** Longest accepted `Idempotency-Key` header, in characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Default submissions per client IP per minute (`SONDE_RATE_LIMIT_PER_MINUTE`). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 10;

/** The rate limit's window, in ms: a client's submissions stored in the last window are counted, in the database. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** `submittedAt` may be at most this far ahead of the server's clock, in ms (5 minutes). */
export const SUBMITTED_AT_MAX_AHEAD_MS = 5 * 60_000;

/** `submittedAt` may be at most this old, in ms (30 days): the browser outbox may deliver late. Shared with the client. */
export { SUBMITTED_AT_MAX_AGE_MS } from '#shared/submission';

/** Time to receive a whole request (headers and body), in ms; a slower (trickled) one gets 408. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Time to receive the request headers, in ms. */
export const HEADERS_TIMEOUT_MS = 10_000;

/** How often Node checks the two time-outs above, in ms (its default, 30 s, would hold a trickle for 40 s). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * Submissions handled at once by one server, counted from the moment a body has arrived whole; one
 * more is answered 503 with `Retry-After`.
 */
export const MAX_CONCURRENT_SUBMISSIONS = 64;

/**
 * Submissions one client address may have under way at once, to one server, from the moment its request
 * arrives (before the body is read) until it is answered: its body arriving, then its row being stored.
 * One more is answered 429 with `Retry-After` before its body is read. A visitor's browser sends one at a
 * time (its outbox two at most); an office behind one address has room. It keeps one address from holding
 * what other visitors need: uploads it opens and never finishes (each is cut after
 * {@link REQUEST_TIMEOUT_MS}), or a flood of submissions past its rate limit, each of which takes one of
 * the {@link MAX_CONCURRENT_SUBMISSIONS} places until the database has counted it.
 */
export const MAX_SUBMISSIONS_PER_CLIENT = 8;

/**
 * Largest body of the verification calls (`POST /api/privacy-requests/verify[/lookup]`), in bytes: a
 * token's body is about 55; more is refused 413 before it is read.
 */
export const VERIFICATION_BODY_MAX_BYTES = 1_024;

/**
 * Verification calls per client IP per minute, on one server, before 429 with `Retry-After`. A
 * requester makes two (look-up, confirm), a few more on a flaky network; a token of 32 random bytes
 * cannot be guessed at any rate, so this only keeps one client from loading the database.
 */
export const VERIFICATION_CALLS_PER_MINUTE = 30;

/**
 * How long an API request waits for the database, in ms: storing a submission, looking up or confirming a
 * verification link, and every call of the team's console (the whole call). Past it the answer is 503 with
 * `Retry-After: 1`, so a visitor is never left waiting on a database that has stopped answering (the
 * browser gives up at 10 s, `SUBMIT_TIMEOUT_MS`; the console at 30 s, `TEAM_CALL_TIMEOUT_MS`). The
 * statement may still commit later: a submission's retry, with the same `Idempotency-Key`, is answered as
 * a replay; a team decision is made once, by the late call or by the member's retry (server/http/team/index.ts).
 */
export const DATABASE_ANSWER_TIMEOUT_MS = 5_000;

/**
 * The `Retry-After` of a 503 answered because the database cannot be reached (a connection refused or
 * lost, a server restarting), in seconds: longer than a slow answer's 1 s, as a restart takes a few.
 */
export const DATABASE_UNAVAILABLE_RETRY_AFTER_S = 5;

/** `GET /api/health` reports the database unreachable when a `select 1` takes longer, in ms. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

/**
 * A refused request (a rate limit, an address with too much under way, a foreign Origin, no session, a body
 * not received whole, a refused passkey) is logged at once the first time its message comes in each interval of this length,
 * in ms; the others are counted and logged as one line when the interval ends (server/logger.ts
 * `createRefusalLog`). So a flood writes two lines a minute per kind of refusal, not one per request: it
 * cannot fill the disk the database may share.
 */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;

/** On SIGTERM, in-flight requests get this long to finish before the process exits anyway, in ms. */
export const SHUTDOWN_GRACE_MS = 10_000;


/** How often the server deletes what the privacy policy's retention periods have passed, in ms (once a day). */
export const PURGE_INTERVAL_MS = 24 * 60 * 60_000;

/**
 * How often a server on PGlite checks whether a request table changed enough to be analyzed again, in ms
 * (server/db/maintenance.ts `analyzePglite`): autovacuum's default naptime, one minute.
 */
export const ANALYZE_CHECK_INTERVAL_MS = 60_000;

/** Most entries in a submission's option list (a checkbox group sends its labels; the forms have fewer). */
export const OPTION_LIST_MAX_ENTRIES = 20;

/**
 * Most submissions written by one statement (one commit, server/db/groupCommit.ts): bounds a statement's
 * size to 64 bodies of at most 64 KB. Through HTTP a batch never holds more than the submissions in flight
 * ({@link MAX_CONCURRENT_SUBMISSIONS}, also 64).
 */
export const GROUP_COMMIT_MAX_BATCH = 64;

/**
 * Connections per server instance to PostgreSQL. Measured with `npm run bench -- --only=api` on 2 cores:
 * 4 gave 1,339 submissions/s, 10 gave 1,754/s; 20 was no faster than 10 without HTTP (1,908 vs 2,025/s).
 */
export const POSTGRES_POOL_SIZE = 10;

/** A PGlite directory's lock not refreshed for this long, in ms, belongs to a dead process (kill -9) and is taken over. */
export const PGLITE_LOCK_STALE_MS = 10_000;
