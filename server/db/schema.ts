import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';

/**
 * Every accepted submission of spec §7.1, one row each. Written once by `POST /api/submissions`,
 * which also counts a client's rows of the last minute for the rate limit (so the limit holds across
 * every server instance sharing the database).
 * The migrations in server/db/migrations/ are generated from this file (`npm run db:generate`); the SQL
 * functions are not: each is one file of server/db/functions/.
 */
export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `privacy` when the body carries the privacy mapping of spec §3, else `invite` */
    kind: text('kind').$type<SubmissionKind>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** the client's `Idempotency-Key` header; a repeat with the same key stores nothing new */
    idempotencyKey: text('idempotency_key').unique(),
    /** SHA-256 (hex) of the checked body, to tell a replay from a different body under a used key */
    bodySha256: text('body_sha256').notNull(),
    /** the submitter's email (`data.workEmail`), lower-cased */
    email: text('email').notNull(),
    /**
     * the mailbox `email` reaches (`mailbox_of`, server/db/mailbox.ts `mailboxOf`: case, `+tag`, Gmail's dots
     * and googlemail.com): what `subject`, `erase` and the per-mailbox mail limits look a person up by
     */
    mailbox: text('mailbox').notNull(),
    /** SHA-256 (hex) of the sending client's IP, for the rate limit: the raw address is not kept here */
    clientKey: text('client_key').notNull(),
    /** the whole accepted body */
    body: jsonb('body').$type<SubmissionBody>().notNull(),
    /** privacy requests only: received_at + 45 days (spec §9, privacy policy) */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** when the team marked the request handled (`npm run requests -- done`); null while open */
    handledAt: timestamp('handled_at', { withTimezone: true }),
    /** who marked it handled (the operating-system user, or `--by`) */
    handledBy: text('handled_by'),
    /** the team's note on how it was handled */
    handledNote: text('handled_note'),
  },
  (table) => [
    check('submissions_kind', sql`${table.kind} in ('invite', 'privacy')`),
    check('submissions_due_at', sql`(${table.kind} = 'privacy') = (${table.dueAt} is not null)`),
    index('submissions_email').on(table.email),
    index('submissions_mailbox').on(table.mailbox),
    // the rate limit counts a client's submissions of the last window (server/db/submissions.ts)
    index('submissions_client_recent').on(table.clientKey, table.receivedAt),
  ],
);

/**
 * Proof that a Delete request was carried out (`npm run requests -- erase`): the person's rows are gone,
 * and only this stays: a SHA-256 of the lower-cased email, when, and how many requests were deleted.
 */
export const erasures = pgTable('erasures', {
  id: uuid('id').primaryKey().defaultRandom(),
  emailSha256: text('email_sha256').notNull(),
  erasedAt: timestamp('erased_at', { withTimezone: true }).notNull().defaultNow(),
  submissions: integer('submissions').notNull(),
});

/** A channel of the outbox: the webhook (`SONDE_ANNOUNCE_WEBHOOK_URL`) or mail (SMTP, or `.eml` files). */
export type OutboxChannel = 'webhook' | 'mail';

/** The messages the mail channel sends, one template each (server/outbox/messages/). */
export type MailMessage =
  | 'invite-acknowledgment'
  | 'privacy-confirmation'
  | 'privacy-outcome'
  | 'privacy-extension'
  | 'team-new-request';

/** How the team answered a privacy request (11 CCR §7022(e), §7024): in full, not at all, or in part. */
export type PrivacyOutcome = 'complied' | 'denied' | 'partly';

/**
 * The outbox: every delivery a stored request causes, one row each, written in the same statement as
 * the submission, sent by server/outbox/sender.ts until its channel succeeds (a 2xx from the webhook,
 * the SMTP server's acceptance, the `.eml` file written). Its `id` is the delivery id: what a webhook
 * receiver sees in `X-Sonde-Delivery`, and the local part of a mail's `Message-ID`, so every retry is
 * the same message. Deleted with its submission (erase, purge).
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** how many times a send was started */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** a sender's lease: no other instance takes the row before this time */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** given up on (3 days of failures) */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    /** the last failure: a status or a network error, never the receiver's body */
    lastError: text('last_error'),
    /** how it is delivered */
    channel: text('channel').$type<OutboxChannel>().notNull().default('webhook'),
    /** the mail channel's message (its template); null for the webhook */
    message: text('message').$type<MailMessage>(),
    /** `privacy-outcome` only: attach the requester's `subject` export as JSON (an Access/Know or Data Portability answer) */
    attachSubject: boolean('attach_subject').notNull().default(false),
    /**
     * the mail as rendered at its first attempt (RFC 5322, CRLF), sent as it is on every later attempt: one
     * Message-ID, one verification link. It may hold a live verification token, so it is cleared once the
     * mail is delivered or given up
     */
    rendered: text('rendered'),
    /**
     * `privacy-confirmation`: the privacy requests it confirms, each with its own verification link
     * (requests to one mailbox while its confirmation waits share it); null: only `submission_id`
     */
    covers: uuid('covers').array(),
    /** requester mail: SHA-256 of the mailbox it goes to (as `mail_quota`), to find the one waiting */
    mailboxSha256: text('mailbox_sha256'),
  },
  (table) => [
    index('deliveries_pending').on(table.nextAttemptAt),
    index('deliveries_submission').on(table.submissionId),
    index('deliveries_waiting_mailbox').on(table.mailboxSha256, table.message).where(sql`${table.deliveredAt} is null and ${table.failedAt} is null`),
    check('deliveries_channel', sql`${table.channel} in ('webhook', 'mail')`),
    check('deliveries_message', sql`(${table.channel} = 'mail') = (${table.message} is not null)`),
  ],
);

/**
 * The record of each privacy request that 11 CCR §7101 asks a business to keep for 24 months: the date
 * and nature of the request, how it was made, the date and nature of the response, and the basis of a
 * denial; with the steps between (confirmation sent, identity verified, extension). It holds no personal
 * information (no name, no email: the request types are the form's own labels), so it outlives `erase`
 * of the request it records; `purge` deletes it 24 months after receipt. Its `id` is the request's.
 */
export const privacyRecords = pgTable(
  'privacy_records',
  {
    /** the submission's id (not a foreign key: the record stays when the request is erased) */
    id: uuid('id').primaryKey(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** the nature of the request: the request types of spec §3, in form order */
    requestTypes: text('request_types').array().notNull(),
    /** how it was made */
    method: text('method').notNull().default('web form'),
    /** when the response is due: received + 45 days, + 45 more once extended (11 CCR §7021(b)) */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** when the confirmation of receipt (§7021(a)) was delivered */
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true }),
    /** when the requester confirmed it was them (§7060, §7062) */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** how: `link` (the confirmation's verification link, `/privacy-request/verify`) or `team` (`requests verify`, e.g. after a reply) */
    verifiedBy: text('verified_by').$type<VerificationMethod>(),
    /** the one extension of §7021(b): when, and the reason the requester was told */
    extendedAt: timestamp('extended_at', { withTimezone: true }),
    extensionReason: text('extension_reason'),
    /** the response: when, what (§7022(e), §7024), why (the basis of a denial, required unless complied), and who */
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    outcome: text('outcome').$type<PrivacyOutcome>(),
    outcomeReason: text('outcome_reason'),
    respondedBy: text('responded_by'),
  },
  (table) => [
    check('privacy_records_verified_by', sql`(${table.verifiedAt} is null) = (${table.verifiedBy} is null) and (${table.verifiedBy} is null or ${table.verifiedBy} in ('link', 'team'))`),
    check('privacy_records_outcome', sql`${table.outcome} is null or ${table.outcome} in ('complied', 'denied', 'partly')`),
    check('privacy_records_denial_reason', sql`${table.outcome} is null or ${table.outcome} = 'complied' or ${table.outcomeReason} is not null`),
    index('privacy_records_received').on(table.receivedAt),
  ],
);

/** How a privacy request's identity was confirmed (11 CCR §7060): by its verification link, or recorded by the team. */
export type VerificationMethod = 'link' | 'team';

/**
 * The verification links of privacy requests (11 CCR §7060, §7062): one row per link mailed
 * in a confirmation of receipt, holding only the SHA-256 of its token (32 random bytes), never the
 * token. A link confirms its request once (`used_at`, which also lets a second opening say so); it is
 * good until the request's due date (`privacy_records.due_at`) and not after the response. `purge` deletes
 * the rows of requests past due or answered; erasing the request deletes its rows.
 */
export const privacyVerifications = pgTable(
  'privacy_verifications',
  {
    /** SHA-256 of the token, hex */
    tokenSha256: text('token_sha256').primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** when a link of the request confirmed it: every link of the request is used from then */
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('privacy_verifications_request').on(table.requestId)],
);

/**
 * What the per-address mail limits count (`MAIL_LIMITS`, server/limits.ts): one row per mail to a
 * requester put in the outbox, by a SHA-256 of the lower-cased address, so the check reads at most a
 * limit's worth of rows however many requests one address sends. Older than a day it is of no use:
 * `purge` deletes it; `erase` deletes a person's rows.
 */
export const mailQuota = pgTable(
  'mail_quota',
  {
    emailSha256: text('email_sha256').notNull(),
    message: text('message').$type<MailMessage>().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mail_quota_recent').on(table.emailSha256, table.message, table.sentAt)],
);
