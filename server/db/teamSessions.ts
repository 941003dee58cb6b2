import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import { sha256Hex } from './mailbox.ts';
import { deliveries, teamChallenges, teamEnrollments, teamMembers, teamPasskeys, teamSessions, type TeamChallengePurpose } from './schema.ts';
import { TEAM_CHALLENGE_TTL_MS, TEAM_SESSION_IDLE_MS, TEAM_SESSION_MAX_MS } from '../limits.ts';

/** A member as a session or a passkey names it. */
export interface SessionMember {
  id: string;
  email: string;
  name: string | null;
}

/** A member being enrolled: who, and the WebAuthn user handle and passkeys its registration options need. */
export interface EnrollingMember extends SessionMember {
  /** the WebAuthn user handle, base64url of 32 bytes */
  webauthnUserId: string;
  /** the member's registered credential IDs (base64url) with their transports, for `excludeCredentials` */
  passkeys: Array<{ id: string; transports: string[] | null }>;
}

/** A stored passkey with its member, for a sign-in's verification. */
export interface StoredPasskey {
  id: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[] | null;
  member: SessionMember & { webauthnUserId: string };
}

const iso = (date: Date) => date.toISOString();
const ago = (now: Date, ms: number) => sql`${iso(now)}::timestamptz - make_interval(secs => ${ms / 1000})`;

/**
 * The member an enrollment link is for, while the link is good: not used, not past `expires_at`, its
 * member not removed. One answer for a link unknown, used or expired (no oracle).
 * @param token - the link's token as the browser sends it (43 base64url characters); only its SHA-256 is looked up
 * @returns undefined when the link is not good
 */
export async function enrollingMember(db: Db, token: string, now: Date): Promise<EnrollingMember | undefined> {
  const [member] = await db
    .select({ id: teamMembers.id, email: teamMembers.email, name: teamMembers.name, webauthnUserId: teamMembers.webauthnUserId })
    .from(teamEnrollments)
    .innerJoin(teamMembers, eq(teamMembers.id, teamEnrollments.memberId))
    .where(and(eq(teamEnrollments.tokenSha256, sha256Hex(token)), isNull(teamEnrollments.usedAt), gt(teamEnrollments.expiresAt, now), isNull(teamMembers.removedAt)));
  if (!member) return undefined;
  const passkeys = await db.select({ id: teamPasskeys.id, transports: teamPasskeys.transports }).from(teamPasskeys).where(eq(teamPasskeys.memberId, member.id));
  return { ...member, passkeys };
}

/**
 * Keeps a challenge just sent in WebAuthn options, good for {@link TEAM_CHALLENGE_TTL_MS}.
 * @param challenge - base64url, as in the options
 * @param memberId - the member enrolling (purpose `enroll`); null for `signin`
 * @returns the challenge's id (a UUID), which a sign-in's verification names
 */
export async function keepChallenge(db: Db, challenge: { challenge: string; purpose: TeamChallengePurpose; memberId: string | null; now: Date }): Promise<string> {
  const [row] = await db
    .insert(teamChallenges)
    .values({ challenge: challenge.challenge, purpose: challenge.purpose, memberId: challenge.memberId, createdAt: challenge.now, expiresAt: new Date(challenge.now.getTime() + TEAM_CHALLENGE_TTL_MS) })
    .returning({ id: teamChallenges.id });
  return row!.id;
}

/**
 * Uses a challenge up: deletes it, in the statement that checks it is the one kept for this ceremony and
 * still good, so that it answers one ceremony only, even under a race.
 * @param which - `id` for a sign-in (the id its options carried), `memberId` for an enrollment
 * @returns true when the challenge was kept, good, and is now gone
 */
export async function spendChallenge(
  db: Db,
  which: { challenge: string; purpose: TeamChallengePurpose; id?: string; memberId?: string; now: Date },
): Promise<boolean> {
  const gone = await db
    .delete(teamChallenges)
    .where(
      and(
        eq(teamChallenges.challenge, which.challenge),
        eq(teamChallenges.purpose, which.purpose),
        which.id !== undefined ? eq(teamChallenges.id, which.id) : undefined,
        which.memberId !== undefined ? eq(teamChallenges.memberId, which.memberId) : undefined,
        gt(teamChallenges.expiresAt, which.now),
      ),
    )
    .returning({ id: teamChallenges.id });
  return gone.length === 1;
}

/**
 * Stores a verified passkey and uses the enrollment link up, in one transaction whose first statement
 * marks the link used only while it is still good (`used_at is null and expires_at > now`): of two
 * registrations racing on one link, the second waits on the row, finds it used, and stores nothing. The
 * link's mail, when still waiting in the outbox, is dropped.
 * @returns false when the link was used or expired meanwhile (nothing stored)
 */
export function registerPasskey(
  db: Db,
  passkey: { token: string; memberId: string; id: string; publicKey: Uint8Array; counter: number; transports: string[] | null; now: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const used = await tx
      .update(teamEnrollments)
      .set({ usedAt: passkey.now })
      .where(
        and(
          eq(teamEnrollments.tokenSha256, sha256Hex(passkey.token)),
          eq(teamEnrollments.memberId, passkey.memberId),
          isNull(teamEnrollments.usedAt),
          gt(teamEnrollments.expiresAt, passkey.now),
        ),
      )
      .returning({ memberId: teamEnrollments.memberId });
    if (used.length === 0) return false;
    // its mail, if still waiting, would carry a used link (a member has one good link at a time)
    await tx.delete(deliveries).where(and(eq(deliveries.memberId, passkey.memberId), isNull(deliveries.deliveredAt), isNull(deliveries.failedAt)));
    await tx.insert(teamPasskeys).values({
      id: passkey.id,
      memberId: passkey.memberId,
      publicKey: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports,
      createdAt: passkey.now,
    });
    return true;
  });
}

/** A passkey by its credential ID (base64url), with its member while a member; undefined otherwise. */
export async function findPasskey(db: Db, id: string): Promise<StoredPasskey | undefined> {
  const [row] = await db
    .select({ passkey: teamPasskeys, member: { id: teamMembers.id, email: teamMembers.email, name: teamMembers.name, webauthnUserId: teamMembers.webauthnUserId } })
    .from(teamPasskeys)
    .innerJoin(teamMembers, eq(teamMembers.id, teamPasskeys.memberId))
    .where(and(eq(teamPasskeys.id, id), isNull(teamMembers.removedAt)));
  return row && { id: row.passkey.id, publicKey: row.passkey.publicKey, counter: row.passkey.counter, transports: row.passkey.transports, member: row.member };
}

/** Records a passkey's use at sign-in: its new signature counter and when. */
export async function passkeyUsed(db: Db, id: string, counter: number, now: Date): Promise<void> {
  await db.update(teamPasskeys).set({ counter, lastUsedAt: now }).where(eq(teamPasskeys.id, id));
}

/**
 * A new session for a member: 32 random bytes, of which only the SHA-256 is stored; it ends
 * {@link TEAM_SESSION_IDLE_MS} after its last call or {@link TEAM_SESSION_MAX_MS} after `now`.
 * @returns the token for the cookie (43 base64url characters)
 */
export async function startSession(db: Db, memberId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(teamSessions).values({ tokenSha256: sha256Hex(token), memberId, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + TEAM_SESSION_MAX_MS) });
  return token;
}

/**
 * The member of a session still going, whose idle time starts again at `now` (in the statement that
 * checks it). A session met past its idle or absolute end is deleted; a removed member has none left.
 * @returns undefined for a token unknown or ended
 */
export async function touchSession(db: Db, token: string, now: Date): Promise<SessionMember | undefined> {
  const hash = sha256Hex(token);
  const [member] = await db
    .update(teamSessions)
    .set({ lastSeenAt: now })
    .from(teamMembers)
    .where(
      and(
        eq(teamSessions.tokenSha256, hash),
        eq(teamMembers.id, teamSessions.memberId),
        isNull(teamMembers.removedAt),
        gt(teamSessions.lastSeenAt, ago(now, TEAM_SESSION_IDLE_MS)),
        gt(teamSessions.expiresAt, now),
      ),
    )
    .returning({ id: teamMembers.id, email: teamMembers.email, name: teamMembers.name });
  if (!member) await db.delete(teamSessions).where(eq(teamSessions.tokenSha256, hash));
  return member;
}

/**
 * Ends a session (sign-out): deletes it.
 * @returns its member's id; undefined when there was no such session
 */
export async function endSession(db: Db, token: string): Promise<string | undefined> {
  const [gone] = await db.delete(teamSessions).where(eq(teamSessions.tokenSha256, sha256Hex(token))).returning({ memberId: teamSessions.memberId });
  return gone?.memberId;
}

/**
 * Deletes the sessions ended at `now` (idle or past their absolute end) and the challenges past their
 * time: the daily purge (server/db/retention.ts `purgeExpired`).
 * @returns how many of each were deleted
 */
export async function purgeTeamSessions(db: Db, now: Date): Promise<{ sessions: number; challenges: number }> {
  const sessions = await db
    .delete(teamSessions)
    .where(or(lte(teamSessions.expiresAt, now), lte(teamSessions.lastSeenAt, ago(now, TEAM_SESSION_IDLE_MS))))
    .returning({ memberId: teamSessions.memberId });
  const challenges = await db.delete(teamChallenges).where(lte(teamChallenges.expiresAt, now)).returning({ id: teamChallenges.id });
  return { sessions: sessions.length, challenges: challenges.length };
}
