// The limits of what the server sends: webhook and mail deliveries, decision events, the team's
// message on a new request, the digest and overdue alerts (server/limits.ts has them all).

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
