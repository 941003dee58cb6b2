// The limits of the team's console and its sign-in (server/limits.ts has them all).

/** How long a team member's enrollment link is good, in ms (24 h); it is also good for one passkey only. */
export const TEAM_ENROLLMENT_TTL_MS = 24 * 60 * 60_000;

/** A console session ends after this long without a call, in ms (12 h). */
export const TEAM_SESSION_IDLE_MS = 12 * 60 * 60_000;

/** A console session ends this long after sign-in whatever its use, in ms (7 days). */
export const TEAM_SESSION_MAX_MS = 7 * 24 * 60 * 60_000;

/**
 * A WebAuthn challenge (registration or sign-in) is good for this long after its options were sent, in
 * ms (5 minutes), and for one ceremony: it is deleted by the statement that checks it.
 */
export const TEAM_CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * Sign-in and enrollment calls (`/api/team/signin/*`, `/api/team/enroll/*`, options and verify counted
 * together) per client address per minute, on one server, before 429 with `Retry-After`. A member
 * signing in makes two; a passkey cannot be guessed at any rate, so this only keeps one client from
 * loading the database and filling the audit with failed sign-ins.
 */
export const TEAM_AUTH_ATTEMPTS_PER_MINUTE = 20;

/**
 * Largest body of the sign-in and enrollment calls, in bytes: a WebAuthn response with an attestation of
 * format `none` is under 2 KB; more is refused 413 before it is read.
 */
export const TEAM_AUTH_BODY_MAX_BYTES = 16_384;

/** Most requests one page of the console's queue (`GET /api/team/requests?limit=`) holds; also its default. */
export const TEAM_QUEUE_PAGE_MAX = 100;

/**
 * How many rows `queue_counts` may hold, in rows, before a read of the queue's counts folds them into one
 * per kind and state (server/db/queue.ts `compactQueueCounts`): on PGlite a read of 1,000 rows took 2.0 ms,
 * of 10 rows 1.3 ms (p50 of 60).
 */
export const QUEUE_COUNTS_COMPACT_ROWS = 1_000;

/** Longest text search (`q`) of the console's queue, in characters. */
export const TEAM_QUEUE_SEARCH_MAX_LENGTH = 200;

/** Invite requests one decision of the console may take at once (a bulk decision from the queue's selection). */
export const TEAM_DECISION_BATCH_MAX = 100;

/**
 * Requests read per keyset page of the console's CSV export (`GET /api/team/requests.csv`): each page is
 * one query of the queue, written out before the next is read, so an export of every stored request holds
 * at most this many rows in memory.
 */
export const TEAM_EXPORT_PAGE_ROWS = 1_000;

/** A cohort's capacity, in accepted requests: 1 to this (the console's cohort form, `cohort add --capacity`). */
export const TEAM_COHORT_CAPACITY_MAX = 999_999;

/** Longest queue cursor (`GET /api/team/requests?after=`) accepted, in characters; the server's own are far shorter. */
export const QUEUE_CURSOR_MAX_LENGTH = 400;

/** Longest passkey credential id accepted in a ceremony's answer, in base64url characters (WebAuthn allows 1,023 bytes). */
export const PASSKEY_CREDENTIAL_ID_MAX_LENGTH = 1_400;
