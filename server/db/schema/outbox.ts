import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { submissions } from './requests.ts';
import { teamMembers } from './team.ts';

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
  | 'invite-declined'
  | 'team-enrollment'
  | 'team-digest'
  | 'team-overdue';

/** The mail a team member's row may hold: an enrollment link's, the daily digest, a privacy request's overdue alert (server/outbox/digest.ts). */
export type MemberMailMessage = Extract<MailMessage, 'team-enrollment' | 'team-digest' | 'team-overdue'>;

/**
 * The outbox: every delivery a stored request causes, one row each, written in the same statement as
 * the submission, sent by server/outbox/sender.ts until its channel succeeds (a 2xx from the webhook,
 * the SMTP server's acceptance, the `.eml` file written). Its `id` is the delivery id: what a webhook
 * receiver sees in `X-Sonde-Delivery`, and the local part of a mail's `Message-ID`, so every retry is
 * the same message. Deleted with its submission (erase, purge). A row belongs to exactly one owner: a
 * submission, or a team member (`member_id`: the mail of an enrollment link, `team-enrollment`, written
 * rendered by `team add|link`; the daily digest, `team-digest`, and the alert of privacy requests newly
 * overdue, `team-overdue`, written rendered by server/db/digest.ts; deleted unsent by `team remove`); a
 * member's rows are in no requester's timeline, export or erasure.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** the request it is about; null for a team member's mail */
    submissionId: uuid('submission_id').references(() => submissions.id, { onDelete: 'cascade' }),
    /** the team member a member's mail (`team-enrollment`, `team-digest`, `team-overdue`) goes to; null for a request's delivery */
    memberId: uuid('member_id').references(() => teamMembers.id, { onDelete: 'cascade' }),
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
     * mail is delivered or given up. A member's mail is rendered when its row is written (an enrollment
     * link's: the command line prints the same link), and cleared the same way
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
    index('deliveries_member').on(table.memberId).where(sql`${table.memberId} is not null`),
    index('deliveries_waiting_mailbox').on(table.mailboxSha256, table.message).where(sql`${table.deliveredAt} is null and ${table.failedAt} is null`),
    check('deliveries_channel', sql`${table.channel} in ('webhook', 'mail', 'event')`),
    check('deliveries_message', sql`(${table.channel} = 'mail') = (${table.message} is not null)`),
    check('deliveries_event', sql`(${table.channel} = 'event') = (${table.event} is not null)`),
    check('deliveries_owner', sql`num_nonnulls(${table.submissionId}, ${table.memberId}) = 1`),
    check('deliveries_member_mail', sql`${table.memberId} is null or (${table.channel} = 'mail' and ${table.message} in ('team-enrollment', 'team-digest', 'team-overdue'))`),
  ],
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
