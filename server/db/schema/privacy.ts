import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { PrivacyOutcome, VerificationMethod } from '#machines/privacyCourseMachine';
import { submissions } from './requests.ts';

/** How the team answered a privacy request (11 CCR §7022(e), §7024), and how its identity was confirmed (§7060): the course's chart's. */
export type { PrivacyOutcome, VerificationMethod };

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
 * The privacy requests whose overdue alert was queued to the team (server/db/digest.ts `alertOverdue`):
 * one row per request, keyed by its id, inserted in the transaction that queues the alert's mail, so a
 * request that passes its due date is announced once, whatever the number of server instances or
 * restarts. Deleted with its request (erase, purge).
 */
export const privacyOverdueAlerts = pgTable('privacy_overdue_alerts', {
  requestId: uuid('request_id')
    .primaryKey()
    .references(() => submissions.id, { onDelete: 'cascade' }),
  alertedAt: timestamp('alerted_at', { withTimezone: true }).notNull().defaultNow(),
});
