import { sql } from 'drizzle-orm';
import { bigint, check, customType, date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** PostgreSQL `bytea`, as a Node Buffer. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The team members who may use the console at `/team`. Added, linked and removed only by the command line
 * on the server (`requests team add|link|remove`), the root of trust. A removed member keeps its row
 * (`removed_at`), so the audit still names who did what; its passkeys, enrollment links and sessions are
 * deleted.
 */
export const teamMembers = pgTable('team_members', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** lower-cased */
  email: text('email').notNull().unique(),
  name: text('name'),
  /** the WebAuthn user handle: 32 random bytes, base64url; not the email, which a passkey would carry */
  webauthnUserId: text('webauthn_user_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** who added it: the operating-system user of the command line */
  createdBy: text('created_by').notNull(),
  removedAt: timestamp('removed_at', { withTimezone: true }),
});

/** `member_id` of a row that belongs to one member (a passkey, an enrollment link, a session): deleted with the member. */
const ownedByMember = () =>
  uuid('member_id')
    .notNull()
    .references(() => teamMembers.id, { onDelete: 'cascade' });

/**
 * The first columns of a member's single-token table (an enrollment link, a session): the SHA-256 of the
 * token, hex, as its key (the token itself is never kept), its member, and when it was made.
 */
const memberTokenColumns = () => ({
  tokenSha256: text('token_sha256').primaryKey(),
  memberId: ownedByMember(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A member's passkeys (WebAuthn credentials), registered through an enrollment link. */
export const teamPasskeys = pgTable(
  'team_passkeys',
  {
    /** the credential ID, base64url */
    id: text('id').primaryKey(),
    memberId: ownedByMember(),
    /** the COSE public key */
    publicKey: bytea('public_key').notNull(),
    /** the authenticator's signature counter (0 for most passkeys, which do not count) */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('team_passkeys_member').on(table.memberId)],
);

/**
 * Single-use enrollment links (`requests team add|link`): 32 random bytes, of which only the SHA-256 is
 * kept, good for `TEAM_ENROLLMENT_TTL_MS` and for one passkey.
 */
export const teamEnrollments = pgTable(
  'team_enrollments',
  {
    ...memberTokenColumns(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('team_enrollments_member').on(table.memberId)],
);

/**
 * The console's sessions, kept in the database so that they hold across server instances: a random
 * token in a `__Host-` cookie, of which only the SHA-256 is kept. A session ends after
 * `TEAM_SESSION_IDLE_MS` without a call or `TEAM_SESSION_MAX_MS` after sign-in, at sign-out, and when its
 * member is removed (deleted).
 */
export const teamSessions = pgTable(
  'team_sessions',
  {
    ...memberTokenColumns(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** `created_at` + `TEAM_SESSION_MAX_MS`: the absolute end */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('team_sessions_member').on(table.memberId)],
);

/** What the audit records. */
export type TeamAuditAction =
  | 'member added'
  | 'member removed'
  | 'enrollment link issued'
  | 'passkey registered'
  | 'signed in'
  | 'sign-in failed'
  | 'signed out'
  | 'decision'
  | 'note'
  /** the queue exported as CSV from the console: no request id, the filter is not kept */
  | 'export'
  /** a cohort created (its name is the team's, not personal): `detail` is `cli` or `console` */
  | 'cohort added'
  /** the daily digest queued by hand (`requests digest --send`): `detail` is `cli` */
  | 'digest sent';

/**
 * The team's audit trail, append-only (a trigger refuses UPDATE and DELETE): who did what, to which request,
 * when. No requester's personal data: the request's id only, never a name, an address or a reason.
 */
export const teamAudit = pgTable(
  'team_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** null for a failed sign-in with an unknown passkey */
    memberId: uuid('member_id').references(() => teamMembers.id),
    action: text('action').$type<TeamAuditAction>().notNull(),
    /** the request acted on (not a foreign key: the audit outlives an erased request) */
    requestId: uuid('request_id'),
    /** what of the action is not personal: the decision's name, `cli` or `console` */
    detail: text('detail'),
  },
  (table) => [
    index('team_audit_at').on(table.at),
    check(
      'team_audit_action',
      sql`${table.action} in ('member added', 'member removed', 'enrollment link issued', 'passkey registered', 'signed in', 'sign-in failed', 'signed out', 'decision', 'note', 'export', 'cohort added', 'digest sent')`,
    ),
  ],
);

/** What a WebAuthn challenge was issued for. */
export type TeamChallengePurpose = 'enroll' | 'signin';

/**
 * The WebAuthn challenges the server sent and has not yet seen answered, kept in the database so that
 * the options and the verification may reach different instances. Each is good for
 * `TEAM_CHALLENGE_TTL_MS` and for one ceremony: the statement that checks it deletes it.
 */
export const teamChallenges = pgTable(
  'team_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** the challenge as sent, base64url (32 random bytes) */
    challenge: text('challenge').notNull(),
    purpose: text('purpose').$type<TeamChallengePurpose>().notNull(),
    /** the member enrolling; null for a sign-in, whose member the passkey tells */
    memberId: uuid('member_id').references(() => teamMembers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('team_challenges_expires').on(table.expiresAt),
    check('team_challenges_purpose', sql`${table.purpose} in ('enroll', 'signin') and (${table.purpose} = 'enroll') = (${table.memberId} is not null)`),
  ],
);

/** Who queued a day's digest: the server's schedule, or the command line (`requests digest --send`). */
export type DigestSender = 'schedule' | 'cli';

/**
 * One row per UTC day whose team digest was queued (server/db/digest.ts): its key is the day, so that
 * however many server instances check at the digest's hour, one inserts the row, and only that one queues
 * the members' mail, in the same transaction. A day whose digest had nothing to say has its row too
 * (`mails` 0): it is checked once.
 */
export const teamDigests = pgTable('team_digests', {
  /** the UTC day, `YYYY-MM-DD` */
  day: date('day', { mode: 'string' }).primaryKey(),
  queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
  by: text('by').$type<DigestSender>().notNull(),
  /** the mails queued: one per active member, 0 when nothing needed the team */
  mails: integer('mails').notNull(),
}, (table) => [check('team_digests_by', sql`${table.by} in ('schedule', 'cli')`)]);
