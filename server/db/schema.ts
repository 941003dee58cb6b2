import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ReviewState } from '#machines/inviteReviewMachine';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';

export type { ReviewState };

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
    /**
     * when the team decided the request (an invite's accept, waitlist, decline or spam; a privacy request's
     * response); null while open, and again once an invite request is reopened
     */
    handledAt: timestamp('handled_at', { withTimezone: true }),
    /** who decided it (the team member; for the command line the operating-system user, or `--by`) */
    handledBy: text('handled_by'),
    /** the decision in words (`waitlisted`, `declined: <reason>`, `complied`, …) */
    handledNote: text('handled_note'),
    /**
     * invite requests only: where the team's review stands (machines/inviteReviewMachine.ts), `received`
     * when stored; null for a privacy request, whose course is its record (`privacy_records`)
     */
    reviewState: text('review_state').$type<ReviewState>(),
    /** an accepted invite request's cohort */
    cohortId: uuid('cohort_id').references((): AnyPgColumn => cohorts.id),
  },
  (table) => [
    check('submissions_kind', sql`${table.kind} in ('invite', 'privacy')`),
    check('submissions_due_at', sql`(${table.kind} = 'privacy') = (${table.dueAt} is not null)`),
    check('submissions_review_state', sql`(${table.kind} = 'invite') = (${table.reviewState} is not null) and (${table.reviewState} is null or ${table.reviewState} in ('received', 'accepted', 'waitlisted', 'declined', 'spam'))`),
    check('submissions_cohort', sql`(${table.cohortId} is not null) = (${table.reviewState} is not distinct from 'accepted')`),
    index('submissions_review').on(table.reviewState, table.receivedAt),
    index('submissions_cohort').on(table.cohortId),
    index('submissions_email').on(table.email),
    index('submissions_mailbox').on(table.mailbox),
    // the rate limit counts a client's submissions of the last window (server/db/submissions.ts)
    index('submissions_client_recent').on(table.clientKey, table.receivedAt),
  ],
);

/**
 * The beta's cohorts (spec §2, /thank-you: "approved applicants are placed in a cohort"): accepted invite
 * requests join one. `capacity`, when set, is how many accepted requests it takes; accepting into a full
 * cohort is refused. Created by `requests cohort add`.
 */
export const cohorts = pgTable(
  'cohorts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    /** the day the cohort starts onboarding (ISO 8601 date, `YYYY-MM-DD`) */
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    /** how many accepted requests it takes; null: no limit */
    capacity: integer('capacity'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').notNull(),
  },
  (table) => [check('cohorts_capacity', sql`${table.capacity} is null or ${table.capacity} > 0`)],
);

/** What a timeline entry records: a decision of the review, or the team's note. */
export type TimelineAction = 'accepted' | 'waitlisted' | 'declined' | 'spam' | 'reopened' | 'note';

/**
 * The team's part of a request's timeline, one row per decision or note, append-only: who, when, from
 * which state to which, and why. `show` merges it with what other tables already keep: the receipt
 * (`submissions`), each mail and its delivery state (`deliveries`), and a privacy request's steps (its
 * record, `privacy_records`). Deleted with its request (erase, purge): a reason or a note may name the
 * person; the record of 11 CCR §7101 stays.
 */
export const timeline = pgTable(
  'timeline',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').$type<TimelineAction>().notNull(),
    /** the review's state before and after a decision; null for a note */
    fromState: text('from_state').$type<ReviewState>(),
    toState: text('to_state').$type<ReviewState>(),
    /** who: the team member, or for the command line the operating-system user (or `--by`) */
    actor: text('actor').notNull(),
    /** a decline's reason, or the note's text */
    reason: text('reason'),
    cohortId: uuid('cohort_id').references(() => cohorts.id),
  },
  (table) => [
    index('timeline_submission').on(table.submissionId, table.at),
    check('timeline_action', sql`${table.action} in ('accepted', 'waitlisted', 'declined', 'spam', 'reopened', 'note')`),
    check('timeline_note', sql`(${table.action} = 'note') = (${table.toState} is null) and (${table.action} <> 'note' or ${table.reason} is not null)`),
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

/**
 * A channel of the outbox: the team's announcement webhook (`SONDE_ANNOUNCE_WEBHOOK_URL`), mail (SMTP, or
 * `.eml` files), or the signed decision events for machines (`SONDE_EVENTS_WEBHOOK_URL`, Standard Webhooks).
 */
export type OutboxChannel = 'webhook' | 'mail' | 'event';

/** The decision events the `event` channel sends (Standard Webhooks' `type`). */
export type DecisionEvent = 'invite.accepted' | 'invite.waitlisted' | 'invite.declined' | 'privacy.responded';

/** The messages the mail channel sends, one template each (server/outbox/messages/). */
export type MailMessage =
  | 'invite-acknowledgment'
  | 'privacy-confirmation'
  | 'privacy-outcome'
  | 'privacy-extension'
  | 'team-new-request'
  | 'invite-accepted'
  | 'invite-waitlisted'
  | 'invite-declined';

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
    /** the `event` channel's event type; null for the other channels */
    event: text('event').$type<DecisionEvent>(),
    /**
     * what the decision that wrote it fixed, as it was then: the `event` channel's `data`; a decision
     * mail's facts (`invite-accepted`: `{ cohort, startsOn }`; `invite-declined`: `{ reason }`)
     */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
  },
  (table) => [
    index('deliveries_pending').on(table.nextAttemptAt),
    index('deliveries_submission').on(table.submissionId),
    index('deliveries_waiting_mailbox').on(table.mailboxSha256, table.message).where(sql`${table.deliveredAt} is null and ${table.failedAt} is null`),
    check('deliveries_channel', sql`${table.channel} in ('webhook', 'mail', 'event')`),
    check('deliveries_message', sql`(${table.channel} = 'mail') = (${table.message} is not null)`),
    check('deliveries_event', sql`(${table.channel} = 'event') = (${table.event} is not null)`),
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
