// @vitest-environment node
// The queue's counts per state kept by triggers (server/db/functions/queue_counts.sql): after every kind of
// change the team and the server make (storing, decisions, a privacy answer, erasure, purge, truncation,
// concurrent writers and folds), they equal the counts read from the requests themselves.
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { rowsOf } from '../../server/db/database.ts';
import { compactQueueCounts, queueCounts, type QueueFilters } from '../../server/db/queue.ts';
import { QUEUE_COUNTS_COMPACT_ROWS } from '../../server/limits.ts';
import { eraseSubject, purgeExpired } from '../../server/db/retention.ts';
import { queueCounts as queueCountsTable } from '../../server/db/schema.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';

const DAY_MS = 86_400_000;

describe.each(testEngines())('the queue counts kept by triggers on $name', (engine) => {
  let database: Database;
  const { run } = teamCli(() => database);
  let sent = 0;
  const storeInvite = () => {
    sent += 1;
    return storeSubmission(database.db, submissionBody({ workEmail: `applicant-${sent}@example.com` }));
  };
  const storePrivacy = () => storeSubmission(database.db, privacyRequestBody());
  const rowsOfCounts = async () => (await database.db.select().from(queueCountsTable)).length;

  /**
   * The counts as the console reads them, for no filter and each kind, at `now` and 46 days on (every open
   * privacy request overdue), checked against the same counts read from the requests (a `since` filter that
   * every request passes takes that path); returns the counts of no filter at `now`.
   */
  const countsChecked = async () => {
    const now = new Date();
    for (const at of [now, new Date(now.getTime() + 46 * DAY_MS)]) {
      for (const kind of [undefined, 'invite', 'privacy'] as const) {
        const filters: QueueFilters = kind ? { kind } : {};
        expect(await queueCounts(database.db, filters, at)).toEqual(await queueCounts(database.db, { ...filters, since: new Date(0) }, at));
      }
    }
    return queueCounts(database.db, {}, now);
  };

  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(async () => {
    await database.close();
  });

  it('follows what is stored, decided, answered, erased and purged', async () => {
    expect(await countsChecked()).toEqual({});
    const invites = [await storeInvite(), await storeInvite(), await storeInvite(), await storeInvite(), await storeInvite()];
    const privacy = [await storePrivacy(), await storePrivacy()];
    expect(await countsChecked()).toEqual({ received: 5, open: 2 });
    expect(await queueCounts(database.db, {}, new Date(Date.now() + 46 * DAY_MS))).toEqual({ received: 5, open: 2, overdue: 2 });

    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15'])).toBe(0);
    expect(await run(['accept', invites[0]!, '--cohort', 'Cohort 3'])).toBe(0);
    expect(await run(['waitlist', invites[1]!])).toBe(0);
    expect(await run(['decline', invites[2]!, invites[3]!])).toBe(0);
    expect(await run(['spam', invites[4]!])).toBe(0);
    expect(await countsChecked()).toEqual({ accepted: 1, waitlisted: 1, declined: 2, spam: 1, open: 2 });
    expect(await run(['reopen', invites[3]!])).toBe(0);
    expect(await countsChecked()).toEqual({ accepted: 1, waitlisted: 1, declined: 1, spam: 1, received: 1, open: 2 });

    expect(await run(['verify', privacy[0]!])).toBe(0);
    expect(await run(['respond', privacy[0]!, '--outcome', 'complied'])).toBe(0);
    expect(await countsChecked()).toEqual({ accepted: 1, waitlisted: 1, declined: 1, spam: 1, received: 1, open: 1, done: 1 });

    // the two privacy requests came from one address (privacyRequestBody's Grace@Example.com): erasing it deletes both
    expect(await eraseSubject(database.db, 'Grace@example.com')).toBe(2);
    expect(await countsChecked()).toEqual({ accepted: 1, waitlisted: 1, declined: 1, spam: 1, received: 1 });

    // 19 months on, every invite request is past its retention period
    const purged = await purgeExpired(database.db, new Date(Date.now() + 19 * 31 * DAY_MS));
    expect(purged.invite).toBe(5);
    expect(await countsChecked()).toEqual({});
  });

  it(`folds its rows once a read finds more than QUEUE_COUNTS_COMPACT_ROWS (${QUEUE_COUNTS_COMPACT_ROWS}), and the counts stay`, async () => {
    await storeInvite();
    await storeInvite();
    await storePrivacy();
    const counts = await countsChecked();
    expect(counts).toEqual({ received: 2, open: 1 });
    // changes that cancel out, as many as it takes to hold exactly the limit: a read leaves them
    const filler = QUEUE_COUNTS_COMPACT_ROWS - (await rowsOfCounts());
    expect(filler).toBeGreaterThan(0);
    await database.db.execute(sql`insert into ${queueCountsTable} (kind, state, n) select 'invite', 'received', 0 from generate_series(1, ${filler}::int)`);
    expect(await queueCounts(database.db, {}, new Date())).toEqual(counts);
    expect(await rowsOfCounts()).toBe(QUEUE_COUNTS_COMPACT_ROWS);
    // one more, and a read folds them, of every kind whatever kind it asks for: one row per kind and state with requests
    await database.db.execute(sql`insert into ${queueCountsTable} (kind, state, n) values ('invite', 'received', 0)`);
    expect(await queueCounts(database.db, { kind: 'privacy' }, new Date())).toEqual({ open: 1 });
    expect(await rowsOfCounts()).toBe(2);
    expect(await countsChecked()).toEqual(counts);
  });

  it('empties with the requests when they are truncated', async () => {
    await storeInvite();
    await storePrivacy();
    await database.db.execute(sql`truncate submissions cascade`);
    expect(await rowsOfCounts()).toBe(0);
    expect(await countsChecked()).toEqual({});
  });

  it('stays exact with writers and folds at once (one connection each on PostgreSQL)', async () => {
    await Promise.all([
      ...Array.from({ length: 40 }, (_, at) => (at % 4 === 0 ? storePrivacy() : storeInvite())),
      ...Array.from({ length: 8 }, () => compactQueueCounts(database.db)),
    ]);
    expect(await countsChecked()).toEqual({ received: 30, open: 10 });
    await compactQueueCounts(database.db);
    const [folded] = rowsOf<{ rows: number }>(await database.db.execute(sql`select count(*)::int as rows from ${queueCountsTable}`));
    expect(folded!.rows).toBe(2);
  });
});
