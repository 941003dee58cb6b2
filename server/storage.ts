import { createHash } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import { RETENTION } from '#shared/policy';
import { submissionKind, type SubmissionBody, type SubmissionKind } from '#shared/submission';
import type { Db } from './db/database.ts';
import { rateLimitHits, submissions } from './db/schema.ts';

/** SHA-256 of a string, as 64 hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What {@link storeSubmission} did. */
export type StoreOutcome =
  | { status: 'stored'; id: string; kind: SubmissionKind }
  | { status: 'replayed'; id: string }
  /** the idempotency key was used before with a different body: nothing stored */
  | { status: 'conflict'; id: string };

/**
 * Stores one checked submission in one statement (nothing half-written), with `kind` derived from
 * the privacy mapping of spec §3 and, for a privacy request, `due_at` = received + 45 days (spec §9).
 * With an idempotency key already stored, stores nothing and returns the first row's id: `replayed`
 * when the body is the same, `conflict` when it differs. Safe when two requests race on one key.
 * @throws the driver's error when the database fails; the caller answers 500.
 */
export async function storeSubmission(
  db: Db,
  input: { body: SubmissionBody; idempotencyKey: string | null },
): Promise<StoreOutcome> {
  const bodySha256 = sha256Hex(JSON.stringify(input.body));
  const kind = submissionKind(input.body.data);
  const [row] = await db
    .insert(submissions)
    .values({
      kind,
      idempotencyKey: input.idempotencyKey,
      bodySha256,
      email: input.body.data.workEmail.toLowerCase(),
      body: input.body,
      dueAt: kind === 'privacy' ? sql`now() + make_interval(days => ${RETENTION.privacyResponseDays})` : null,
    })
    .onConflictDoNothing({ target: submissions.idempotencyKey })
    .returning({ id: submissions.id });
  if (row) return { status: 'stored', id: row.id, kind };
  const first = input.idempotencyKey ? await findByIdempotencyKey(db, input.idempotencyKey) : undefined;
  if (!first) throw new Error('insert returned no row and no earlier row holds the idempotency key');
  return first.bodySha256 === bodySha256 ? { status: 'replayed', id: first.id } : { status: 'conflict', id: first.id };
}

/** The row stored under an idempotency key, if any. */
export async function findByIdempotencyKey(db: Db, key: string): Promise<{ id: string; bodySha256: string } | undefined> {
  const [row] = await db
    .select({ id: submissions.id, bodySha256: submissions.bodySha256 })
    .from(submissions)
    .where(eq(submissions.idempotencyKey, key));
  return row;
}

/**
 * Counts one submission for a client in the current fixed window of `windowMs`, in the database, so
 * that the count holds across server instances. The client is kept as a SHA-256 of its IP only.
 * @returns the count in this window, including this one, and the seconds until the window ends (≥ 1)
 */
export async function countSubmission(
  db: Db,
  clientIp: string,
  windowMs: number,
): Promise<{ hits: number; retryAfterSeconds: number }> {
  const windowSeconds = windowMs / 1000;
  const [row] = await db
    .insert(rateLimitHits)
    .values({
      clientKey: sha256Hex(clientIp),
      windowStart: sql`date_bin(make_interval(secs => ${windowSeconds}), now(), timestamptz '2000-01-01 00:00:00+00')`,
      hits: 1,
    })
    .onConflictDoUpdate({
      target: [rateLimitHits.clientKey, rateLimitHits.windowStart],
      set: { hits: sql`${rateLimitHits.hits} + 1` },
    })
    .returning({
      hits: rateLimitHits.hits,
      retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from ${rateLimitHits.windowStart} + make_interval(secs => ${windowSeconds}) - now())))::int`,
    });
  if (!row) throw new Error('rate-limit upsert returned no row');
  return { hits: row.hits, retryAfterSeconds: Number(row.retryAfterSeconds) };
}

/** Deletes rate-limit counts older than two windows. @returns how many rows went */
export async function pruneRateLimitHits(db: Db, windowMs: number): Promise<number> {
  const gone = await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.windowStart, sql`now() - make_interval(secs => ${(2 * windowMs) / 1000})`))
    .returning({ key: rateLimitHits.clientKey });
  return gone.length;
}
