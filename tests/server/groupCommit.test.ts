// @vitest-environment node
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../server/db/database.ts';
import { deliveries, submissions } from '../../server/db/schema.ts';
import { createSubmissionWriter } from '../../server/db/groupCommit.ts';
import { GROUP_COMMIT_MAX_BATCH } from '../../server/limits.ts';
import { isRefusedByDatabase } from '../../server/db/submissions.ts';
import { testEngines, withTestDatabase } from '../support/database.ts';
import { submissionBody } from '../support/submissionBody.ts';

const settings = { limitPerWindow: 100, windowMs: 60_000 };

describe.each(testEngines())('group commit on $name', (engine) => {
  let database: Database;
  withTestDatabase(engine, (opened) => (database = opened));

  /**
   * How many transactions wrote the stored rows, and how many rows each, oldest first: `received_at` is
   * `now()`, the time its transaction started, so rows of one statement share it and no two do.
   */
  const transactions = async () =>
    rowsOf<{ rows: number }>(
      await database.db.execute(sql`select count(*)::int as rows from submissions group by received_at order by received_at`),
    ).map((t) => t.rows);

  const visitor = (n: number, data: Parameters<typeof submissionBody>[0] = {}) => ({
    body: submissionBody({ workEmail: `visitor${n}@example.com`, ...data }),
    idempotencyKey: `c1c0ffee-0000-4000-8000-${String(n).padStart(12, '0')}`,
    clientIp: `198.51.100.${n % 250}`,
  });

  it('writes submissions that arrive together with one statement, each with its own row and outcome', async () => {
    const writer = createSubmissionWriter(database.db, settings);
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, n) => writer.accept(visitor(n))));
    expect(await transactions()).toEqual([30]);
    const rows = await database.db.select({ id: submissions.id, email: submissions.email, key: submissions.idempotencyKey }).from(submissions);
    expect(rows).toHaveLength(30);
    // Each visitor's answer names the row holding their own email.
    outcomes.forEach((outcome, n) => {
      expect(outcome.status).toBe('stored');
      const row = rows.find((r) => r.id === (outcome as { id: string }).id);
      expect(row).toMatchObject({ email: `visitor${n}@example.com`, key: visitor(n).idempotencyKey });
    });
  });

  it(`writes at most ${GROUP_COMMIT_MAX_BATCH} submissions per statement: one more goes in the next`, async () => {
    const writer = createSubmissionWriter(database.db, settings);
    const outcomes = await Promise.all(Array.from({ length: GROUP_COMMIT_MAX_BATCH + 1 }, (_, n) => writer.accept(visitor(n))));
    expect(outcomes.every((o) => o.status === 'stored')).toBe(true);
    expect(await transactions()).toEqual([GROUP_COMMIT_MAX_BATCH, 1]);
  });

  it('writes submissions that arrive during a commit together, with the next statement', async () => {
    const writer = createSubmissionWriter(database.db, settings);
    const first = writer.accept(visitor(1));
    await new Promise((resolve) => setImmediate(resolve)); // the first statement is under way
    const later = [writer.accept(visitor(2)), writer.accept(visitor(3))];
    await Promise.all([first, ...later]);
    expect(await transactions()).toEqual([1, 2]);
  });

  it('within one statement: a repeated Idempotency-Key is stored once, and a reused one with another body is refused', async () => {
    const writer = createSubmissionWriter(database.db, settings);
    const first = visitor(1);
    const again = { ...first };
    const reused = { ...first, body: submissionBody({ fullName: 'Someone Else' }) };
    const outcomes = await Promise.all([writer.accept(first), writer.accept(again), writer.accept(reused)]);
    expect(outcomes.map((o) => o.status)).toEqual(['stored', 'replayed', 'conflict']);
    expect((outcomes[1] as { id: string }).id).toBe((outcomes[0] as { id: string }).id);
    expect(await database.db.$count(submissions)).toBe(1);
  });

  it('within one statement: the rate limit counts the rows written before it', async () => {
    const writer = createSubmissionWriter(database.db, { limitPerWindow: 2, windowMs: 60_000 });
    const oneClient = (n: number) => ({ ...visitor(n), clientIp: '203.0.113.50' });
    const outcomes = await Promise.all([1, 2, 3].map((n) => writer.accept(oneClient(n))));
    expect(outcomes.map((o) => o.status)).toEqual(['stored', 'stored', 'limited']);
    expect(outcomes[2]).toEqual({ status: 'limited', retryAfterSeconds: expect.any(Number) });
    expect(await database.db.$count(submissions)).toBe(2);
  });

  it('fails only the submission the database refuses: the others of its batch are stored', async () => {
    const writer = createSubmissionWriter(database.db, settings);
    // PostgreSQL's jsonb refuses U+0000; the HTTP schema never lets it through, so only a bug could send it.
    const results = await Promise.allSettled([writer.accept(visitor(1)), writer.accept(visitor(2, { fullName: 'Nul\u0000l' })), writer.accept(visitor(3))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const emails = (await database.db.select({ email: submissions.email }).from(submissions)).map((r) => r.email).sort();
    expect(emails).toEqual(['visitor1@example.com', 'visitor3@example.com']);
  });

  it('with announce, writes each stored submission’s webhook delivery in the same statement', async () => {
    const writer = createSubmissionWriter(database.db, { ...settings, announce: true });
    await Promise.all([1, 2, 3].map((n) => writer.accept(visitor(n))));
    expect(await transactions()).toEqual([3]);
    expect(await database.db.$count(deliveries)).toBe(3);
  });

  it('keeps writing after the database refused a batch', async () => {
    const writer = createSubmissionWriter(database.db, settings);
    await expect(writer.accept(visitor(1, { fullName: 'Nul\u0000l' }))).rejects.toThrow();
    expect((await writer.accept(visitor(2))).status).toBe('stored');
    expect(await database.db.$count(submissions)).toBe(1);
  });
});

describe('isRefusedByDatabase: may a failed batch be written again one by one?', () => {
  it('yes when the database answered with a SQLSTATE, on the error or the driver error it wraps', () => {
    expect(isRefusedByDatabase(Object.assign(new Error('unsupported Unicode escape sequence'), { code: '22P05' }))).toBe(true);
    expect(isRefusedByDatabase(Object.assign(new Error('raise_exception'), { code: 'P0001' }))).toBe(true);
    const driverError = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isRefusedByDatabase(new Error('Failed query: select …', { cause: driverError }))).toBe(true);
  });

  it('no after a broken connection, when the commit may have happened', () => {
    expect(isRefusedByDatabase(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isRefusedByDatabase(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(false);
    expect(isRefusedByDatabase(Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' }))).toBe(false);
    expect(isRefusedByDatabase(new Error('PGlite is closed'))).toBe(false);
  });
});
