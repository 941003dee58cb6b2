import { sql, type SQL } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
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
    /** the submitter's email (`data.workEmail`) as its address (server/db/mailbox.ts `addressOf`): the domain lower-cased, the local part as typed */
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
    /**
     * what the console's text search (`q`) reads: the name, the email and the company, lower-cased, kept
     * by PostgreSQL with the row, so a search does not open every row's body
     */
    searchText: text('search_text').generatedAlwaysAs(
      (): SQL => sql`lower(coalesce(${submissions.body}->'data'->>'fullName', '') || ' ' || ${submissions.email} || ' ' || coalesce(${submissions.body}->'data'->>'companyName', ''))`,
    ),
  },
  (table) => [
    check('submissions_kind', sql`${table.kind} in ('invite', 'privacy')`),
    check('submissions_due_at', sql`(${table.kind} = 'privacy') = (${table.dueAt} is not null)`),
    check('submissions_review_state', sql`(${table.kind} = 'invite') = (${table.reviewState} is not null) and (${table.reviewState} is null or ${table.reviewState} in ('received', 'accepted', 'waitlisted', 'declined', 'spam'))`),
    check('submissions_cohort', sql`(${table.cohortId} is not null) = (${table.reviewState} is not distinct from 'accepted')`),
    index('submissions_review').on(table.reviewState, table.receivedAt),
    /** the console's queue: newest first, pages by keyset on (received_at, id) (server/db/queue.ts `queuePage`) */
    index('submissions_received').on(table.receivedAt, table.id),
    index('submissions_cohort').on(table.cohortId),
    index('submissions_email').on(table.email),
    /**
     * a mailbox's requests (`subject`, `erase`, a request's page), and the queue's `duplicateOf`, the first earlier
     * request of the same kind from the same mailbox (server/db/queue.ts `FIRST_OF_MAILBOX`), read per row of a page:
     * with `mailbox` alone, PostgreSQL met `received_at <` by a bitmap over every older row, 6 ms a row on PGlite
     * with 100,000 requests (`npm run bench -- --only=queue`)
     */
    index('submissions_mailbox_kind').on(table.mailbox, table.kind, table.receivedAt),
    /**
     * the queue's counts per state under a date, cohort or text filter (server/db/queue.ts `queueCounts`; without
     * one they come from `queue_counts`), a scan of every request of the filter, and the overdue count: read from
     * this index alone (once vacuumed: server/db/maintenance.ts) rather than from the rows, whose body makes them
     * 10 times wider; with `search_text`, so a text search counts from it too
     */
    index('submissions_queue_counts').on(table.kind, table.reviewState, table.handledAt, table.dueAt, table.searchText),
    // the rate limit counts a client's submissions of the last window (server/db/submissions.ts)
    index('submissions_client_recent').on(table.clientKey, table.receivedAt),
  ],
);

/**
 * How many requests are in each state of the team's queue (server/db/queue.ts `queueCounts`), kept as the
 * requests change, so that the console's counts read a few rows instead of every request: a scan of
 * 100,000 took 60 to 80 ms on PGlite (`npm run bench -- --only=queue`). Rows are signed changes (`n`),
 * appended by triggers on `submissions` and never updated, so that concurrent writers never wait on one
 * counter row; a state's count is the sum of its rows, folded into one row by `compactQueueCounts`.
 * Written only by server/db/functions/queue_counts.sql and `compactQueueCounts`.
 */
export const queueCounts = pgTable('queue_counts', {
  kind: text('kind').$type<SubmissionKind>().notNull(),
  /** `queue_state(review_state, handled_at)`: an invite request's review state, a privacy request's `open` or `done` */
  state: text('state').notNull(),
  n: integer('n').notNull(),
});

/**
 * The beta's cohorts (spec §2, /thank-you: "approved applicants are placed in a cohort"): accepted invite
 * requests join one. `capacity`, when set, is how many accepted requests it takes; accepting into a full
 * cohort is refused. Created by `requests cohort add`.
 */
export const cohorts = pgTable(
  'cohorts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * trimmed and NFKC-normalised by whoever adds it (server/db/decisions.ts `cohortNameOf`); unique whatever
     * its case (`cohorts_name_lower`), so no look-alike of a full cohort takes more requests
     */
    name: text('name').notNull(),
    /** the day the cohort starts onboarding (ISO 8601 date, `YYYY-MM-DD`) */
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    /** how many accepted requests it takes; null: no limit */
    capacity: integer('capacity'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').notNull(),
  },
  (table) => [
    check('cohorts_capacity', sql`${table.capacity} is null or ${table.capacity} > 0`),
    uniqueIndex('cohorts_name_lower').on(sql`lower(${table.name})`),
  ],
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
