import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';

/**
 * Every accepted submission of spec §7.1, one row each. Written once by `POST /api/submissions`.
 * The migrations in server/db/migrations/ are generated from this file (`npm run db:generate`).
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
    /** the submitter's email (`data.workEmail`), lower-cased, for the team's look-ups */
    email: text('email').notNull(),
    /** the whole accepted body */
    body: jsonb('body').$type<SubmissionBody>().notNull(),
    /** privacy requests only: received_at + 45 days (spec §9, privacy policy) */
    dueAt: timestamp('due_at', { withTimezone: true }),
  },
  (table) => [
    check('submissions_kind', sql`${table.kind} in ('invite', 'privacy')`),
    check('submissions_due_at', sql`(${table.kind} = 'privacy') = (${table.dueAt} is not null)`),
    index('submissions_received_at').on(table.receivedAt),
    index('submissions_email').on(table.email),
  ],
);

/**
 * Submissions counted per client and per fixed one-minute window, so that the rate limit holds across
 * every server instance sharing the database. Rows older than two windows are deleted.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    /** SHA-256 (hex) of the client IP: the raw address is not kept */
    clientKey: text('client_key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (table) => [primaryKey({ columns: [table.clientKey, table.windowStart] })],
);
