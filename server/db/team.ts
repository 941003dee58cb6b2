import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import { sha256Hex } from './mailbox.ts';
import { deliveries, teamAudit, teamEnrollments, teamMembers, teamPasskeys, teamSessions, type TeamAuditAction } from './schema.ts';
import { TEAM_ENROLLMENT_TTL_MS } from '../limits.ts';

type Member = typeof teamMembers.$inferSelect;

/** A member as `team list` shows it. */
export interface MemberView {
  email: string;
  name: string | null;
  addedAt: Date;
  addedBy: string;
  /** registered passkeys */
  passkeys: number;
  /** sessions not yet ended */
  sessions: number;
  /** null while a member */
  removedAt: Date | null;
}

/** A new enrollment link's token (32 random bytes, base64url: 43 characters) and when it stops being good. */
export interface Enrollment {
  token: string;
  expiresAt: Date;
}

/**
 * Renders the mail of a new enrollment link (server/outbox/enrollmentMail.ts): given the outbox row's id
 * (its Message-ID), the member's address and the link's token and expiry, the whole message (RFC 5322).
 */
export type EnrollmentMailer = (mail: { deliveryId: string; to: string; token: string; expiresAt: Date }) => Promise<string>;

/** A member's mail still waiting in the outbox (neither delivered nor given up). */
const unsentMailOf = (memberId: string) => and(eq(deliveries.memberId, memberId), isNull(deliveries.deliveredAt), isNull(deliveries.failedAt));

/** A member's enrollment mail still waiting: a new link replaces it, and leaves the digest and alerts waiting. */
const unsentEnrollmentMailOf = (memberId: string) => and(unsentMailOf(memberId), eq(deliveries.message, 'team-enrollment'));

/** Appends one entry to the team's audit trail (append-only: server/db/functions/team_audit_append_only.sql). */
export async function audit(db: Db, entry: { at: Date; memberId: string | null; action: TeamAuditAction; requestId?: string | null; detail?: string | null }): Promise<void> {
  await db.insert(teamAudit).values({ at: entry.at, memberId: entry.memberId, action: entry.action, requestId: entry.requestId ?? null, detail: entry.detail ?? null });
}

/**
 * Appends one entry of the command line (`npm run requests`) to the team's audit trail: it has no team
 * member (its `--by` is free text, so it names no member the audit could vouch for), so `member_id` is null
 * and `detail` names the channel: `<name> (cli)`, e.g. `accept (cli)`, or `cli` when the action has no name.
 */
export async function auditCommandLine(db: Db, entry: { at: Date; action: TeamAuditAction; requestId?: string | null; name?: string }): Promise<void> {
  await audit(db, { at: entry.at, memberId: null, action: entry.action, requestId: entry.requestId ?? null, detail: entry.name === undefined ? 'cli' : `${entry.name} (cli)` });
}

/**
 * A new single-use enrollment link for `member`, good for {@link TEAM_ENROLLMENT_TTL_MS}; only its SHA-256
 * is stored. The member's earlier links stop working, and their mails still waiting are dropped (one
 * good link at a time). The link's mail is written into the outbox, rendered, in the same transaction
 * (`deliveries.rendered` holds the raw token until the mail is delivered or given up, as a privacy
 * confirmation's verification link).
 */
async function issueEnrollment(db: Db, member: Member, at: Date, mail: EnrollmentMailer): Promise<Enrollment> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(at.getTime() + TEAM_ENROLLMENT_TTL_MS);
  await db.delete(teamEnrollments).where(and(eq(teamEnrollments.memberId, member.id), isNull(teamEnrollments.usedAt)));
  await db.delete(deliveries).where(unsentEnrollmentMailOf(member.id));
  await db.insert(teamEnrollments).values({ tokenSha256: sha256Hex(token), memberId: member.id, createdAt: at, expiresAt });
  const deliveryId = randomUUID();
  const rendered = await mail({ deliveryId, to: member.email, token, expiresAt });
  await db.insert(deliveries).values({ id: deliveryId, memberId: member.id, channel: 'mail', message: 'team-enrollment', rendered, createdAt: at, nextAttemptAt: sql`now()` });
  await audit(db, { at, memberId: member.id, action: 'enrollment link issued', detail: 'cli' });
  return { token, expiresAt };
}

/**
 * `team add`: a new member (or a removed one, back), with its first enrollment link, mailed to it.
 * @param member - `email` lower-cased here; `by`: the operating-system user who adds it
 * @param mail - renders the link's mail, written into the outbox in this transaction
 * @returns the link's token; undefined when the address is a member already (`team link` gives a new link)
 */
export async function addMember(db: Db, member: { email: string; name: string | null; by: string; at: Date }, mail: EnrollmentMailer): Promise<Enrollment | undefined> {
  const email = member.email.toLowerCase();
  const [existing] = await db.select().from(teamMembers).where(eq(teamMembers.email, email)).for('update');
  if (existing && existing.removedAt === null) return undefined;
  const [row] = existing
    ? await db.update(teamMembers).set({ removedAt: null, name: member.name ?? existing.name }).where(eq(teamMembers.id, existing.id)).returning()
    : await db
        .insert(teamMembers)
        .values({ email, name: member.name, webauthnUserId: randomBytes(32).toString('base64url'), createdAt: member.at, createdBy: member.by })
        .returning();
  await audit(db, { at: member.at, memberId: row!.id, action: 'member added', detail: member.by });
  return issueEnrollment(db, row!, member.at, mail);
}

/**
 * `team link`: a new enrollment link for a member (a second device, or a lost one), mailed to it; its
 * earlier links stop working, and their mails still waiting are dropped.
 * @param mail - renders the link's mail, written into the outbox in this transaction
 * @returns undefined when the address is not a member
 */
export async function newEnrollmentLink(db: Db, email: string, at: Date, mail: EnrollmentMailer): Promise<Enrollment | undefined> {
  const [member] = await db.select().from(teamMembers).where(and(eq(teamMembers.email, email.toLowerCase()), isNull(teamMembers.removedAt))).for('update');
  return member ? issueEnrollment(db, member, at, mail) : undefined;
}

/**
 * `team remove`: the member's passkeys, enrollment links and sessions deleted (every session ends at
 * once), its mail still waiting in the outbox (an enrollment link, a digest, an alert) dropped unsent, the member kept as removed for
 * the audit.
 * @returns false when the address is not a member
 */
export async function removeMember(db: Db, email: string, at: Date, by: string): Promise<boolean> {
  const [member] = await db.select().from(teamMembers).where(and(eq(teamMembers.email, email.toLowerCase()), isNull(teamMembers.removedAt))).for('update');
  if (!member) return false;
  await db.delete(teamSessions).where(eq(teamSessions.memberId, member.id));
  await db.delete(teamPasskeys).where(eq(teamPasskeys.memberId, member.id));
  await db.delete(teamEnrollments).where(eq(teamEnrollments.memberId, member.id));
  await db.delete(deliveries).where(unsentMailOf(member.id));
  await db.update(teamMembers).set({ removedAt: at }).where(eq(teamMembers.id, member.id));
  await audit(db, { at, memberId: member.id, action: 'member removed', detail: by });
  return true;
}

/** `team list`: every member, removed ones too, in the order they were added. */
export function listMembers(db: Db, now: Date): Promise<MemberView[]> {
  return db
    .select({
      email: teamMembers.email,
      name: teamMembers.name,
      addedAt: teamMembers.createdAt,
      addedBy: teamMembers.createdBy,
      passkeys: sql<number>`(select count(*)::int from ${teamPasskeys} p where p.member_id = "team_members"."id")`,
      sessions: sql<number>`(select count(*)::int from ${teamSessions} s where s.member_id = "team_members"."id" and s.expires_at > ${now.toISOString()}::timestamptz)`,
      removedAt: teamMembers.removedAt,
    })
    .from(teamMembers)
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.email));
}
