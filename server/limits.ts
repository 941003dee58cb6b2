/**
 * Every limit the server enforces, with its unit (DESIGN.md §2: "every limit a named constant").
 * Each has a test at its boundary in tests/server/.
 */

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

/** A webhook delivery's POST is aborted after this long, in ms. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/** The first retry of a failed delivery comes about this long after it, in ms; then doubling. */
export const DELIVERY_FIRST_RETRY_MS = 1_000;

/** The longest wait between two attempts of one delivery, in ms (1 hour). */
export const DELIVERY_MAX_RETRY_MS = 60 * 60_000;

/** A delivery still failing this long after its request was stored is given up, in ms (3 days). */
export const DELIVERY_GIVE_UP_AFTER_MS = 3 * 24 * 60 * 60_000;

/** How often the outbox is read for due deliveries, in ms. */
export const DELIVERY_POLL_INTERVAL_MS = 1_000;

/** The longest one webhook delivery may take, in ms (its POST is cut at {@link WEBHOOK_TIMEOUT_MS}). */
export const WEBHOOK_DELIVERY_DEADLINE_MS = 15_000;

/**
 * A sender's hold on a delivery it claimed (its lease), in ms, on the database's clock: renewed every
 * {@link DELIVERY_HEARTBEAT_MS} while the delivery is in flight, whatever its channel's deadline, so a
 * slow but live delivery is never taken over. When its sender is gone (kill -9, a lost machine), the
 * lease runs out at most this long after its last renewal, and another instance (or the restarted one)
 * claims the delivery at its next poll ({@link DELIVERY_POLL_INTERVAL_MS}): within 31 s of the death.
 */
export const DELIVERY_LEASE_MS = 30_000;

/**
 * How often a sender renews the lease of each delivery it has in flight, in ms: a third of
 * {@link DELIVERY_LEASE_MS}, so that two renewals in a row may fail (a database slow to answer) before
 * the lease runs out. A sender whose renewals have not held for a whole lease stops the delivery, as
 * another instance may have taken it.
 */
export const DELIVERY_HEARTBEAT_MS = 10_000;

/**
 * The fewest bytes the decision events' signing secret (`SONDE_EVENTS_WEBHOOK_SECRET`, `whsec_<base64>`)
 * decodes to: Standard Webhooks' symmetric scheme asks for 24 to 64 random bytes. The events use the
 * webhook's time-out and deadline ({@link WEBHOOK_TIMEOUT_MS}, {@link WEBHOOK_DELIVERY_DEADLINE_MS}).
 */
export const EVENTS_SECRET_MIN_BYTES = 24;

/** The most bytes the decision events' signing secret decodes to (Standard Webhooks: 24 to 64). */
export const EVENTS_SECRET_MAX_BYTES = 64;

/**
 * Deliveries one instance sends at once. Each is claimed under its own lease when a place is free, so
 * a slow one (a mail server taking its 10 minutes) holds only its own place, never the others.
 */
export const DELIVERY_CONCURRENCY = 10;

/**
 * How much mail one mailbox can be sent by submitting the forms, on top of the per-IP rate limit: the
 * forms must not become a way to fill someone else's mailbox. Counted in the database per mailbox
 * (server/db/mailbox.ts `mailboxOf`: case, `+tag`, Gmail's dots and googlemail.com) over `windowMs` (24 h).
 * A request past the limit is stored and announced to the team all the same; an invite acknowledgment
 * is left out, a privacy confirmation waits for the next slot, shared with the later requests from its very address.
 */
export const MAIL_LIMITS = {
  /** the window, in ms (24 hours) */
  windowMs: 24 * 60 * 60_000,
  /** invite acknowledgments per mailbox per window: more requests are stored, not acknowledged again */
  invitePerWindow: 1,
  /** privacy confirmation mails per mailbox per window (11 CCR §7021(a): every request is confirmed, at its own address; requests from one address share a waiting one) */
  privacyPerWindow: 3,
  /**
   * requests one waiting privacy confirmation lists at most (each with its verification link: 652 bytes of
   * the message each, 329 KB for 500, measured with nodemailer's composer): past it, the next request's
   * confirmation is one more mail sent with the earliest waiting one, at its slot, so a flood of requests
   * from one address never makes a mail too large to deliver nor delays a confirmation past its window
   */
  requestsPerConfirmation: 500,
} as const;

/** Time to open the TCP (and TLS) connection to the SMTP server, in ms; RFC 5321 sets none. */
export const MAIL_CONNECT_TIMEOUT_MS = 60_000;

/** Time for the SMTP server's greeting (220), in ms: 5 minutes, RFC 5321 §4.5.3.2.1. */
export const MAIL_GREETING_TIMEOUT_MS = 5 * 60_000;

/**
 * Time the SMTP server may stay silent, in ms: 10 minutes, the longest reply wait of RFC 5321
 * §4.5.3.2, that of the final reply to DATA (§4.5.3.2.6), which a server may spend filtering the
 * message. nodemailer has one inactivity timer for every reply, so it is this one; MAIL and RCPT
 * (5 minutes, §4.5.3.2.2–3) get it too.
 */
export const MAIL_REPLY_TIMEOUT_MS = 10 * 60_000;

/**
 * The longest one mail delivery may take, in ms (15 minutes): the DATA reply's 10 minutes and 5 for
 * connecting, the greeting and the commands before it. Past it the SMTP connection is closed and the
 * attempt retried later, as the same message.
 */
export const MAIL_DELIVERY_DEADLINE_MS = 15 * 60_000;

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

/** The longest subject of the team's message on a new request, in UTF-16 code units (what `String.length` counts), the ellipsis included. */
export const TEAM_SUBJECT_MAX_LENGTH = 150;

/** The UTC hour (0–23) at which the team's daily digest is sent unless `SONDE_TEAM_DIGEST_HOUR` says another. */
export const DEFAULT_TEAM_DIGEST_HOUR = 8;

/**
 * How often each server checks for a privacy request newly overdue (its one alert) and for today's digest
 * not yet sent, in ms (one minute): an alert leaves within a minute of the due moment, and a server
 * started after the digest's hour sends the day's digest at its first check.
 */
export const DIGEST_CHECK_INTERVAL_MS = 60_000;

/** The digest lists a privacy request whose requester has not confirmed their identity this long after receipt, in ms (10 days). */
export const DIGEST_UNVERIFIED_AFTER_MS = 10 * 24 * 60 * 60_000;

/** The digest counts invite requests still waiting for a decision (review state `received`) this long after receipt, in ms (7 days). */
export const DIGEST_INVITE_WAITING_AFTER_MS = 7 * 24 * 60 * 60_000;

/** The digest lists the deliveries given up within this long before it, in ms (one day: since the day before's digest). */
export const DIGEST_GIVEN_UP_WITHIN_MS = 24 * 60 * 60_000;

/** The digest lists the cohorts that start from its day (UTC) to this many calendar days after it, both included, in days. */
export const DIGEST_COHORT_STARTS_WITHIN_DAYS = 7;

/**
 * The most requests or deliveries one section of the digest or one overdue alert lists, one line each
 * (about 150 bytes), in entries; past it the section says how many more the console's queue shows. The
 * counts stay whole. A flood of privacy requests (public forms, many addresses) left unanswered would
 * otherwise make a mail of megabytes, past what SMTP servers take (often 10 to 25 MB).
 */
export const DIGEST_LIST_MAX = 100;

/** The due-date bands of the digest are the console's: under these many days left, in whole days (`#shared/dueBand`). */
export { DUE_SOON_DAYS, DUE_URGENT_DAYS } from '#shared/dueBand';
