// @vitest-environment node
// The console's queue, read-only, over real HTTP behind a session: filters, text search, counts per
// state, keyset pages that neither skip nor repeat rows when requests arrive between two pages, and a
// request's page (every field, the client metadata, the timeline, the same mailbox's other requests).
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { cohorts, submissions } from '../../server/db/schema.ts';
import { QUEUE_CURSOR_MAX_LENGTH, TEAM_QUEUE_PAGE_MAX } from '../../server/limits.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import type { teamClient } from '../support/teamClient.ts';
import { signedInConsole } from '../support/teamServer.ts';

type Summary = { id: string; kind: string; fullName: string; state?: string; status: string; cohort?: string };
type Page = { requests: Summary[]; next: string | null; counts: Record<string, number> };

describe.each(testEngines())('the team queue on $name', (engine) => {
  let database: Database;
  let client: ReturnType<typeof teamClient>;

  signedInConsole(engine, (opened) => ({ database, client } = opened));

  const page = async (query: string): Promise<Page> => {
    const answer = await client.call('GET', `/requests${query}`);
    expect(answer.status, query).toBe(200);
    return answer.json as unknown as Page;
  };
  const names = async (query: string) => (await page(query)).requests.map((r) => r.fullName).sort();
  const invite = (fullName: string, workEmail: string, companyName = 'Analytical Ltd') => storeSubmission(database.db, submissionBody({ fullName, workEmail, companyName }));
  const decide = (id: string, set: Partial<typeof submissions.$inferInsert>) => database.db.update(submissions).set({ handledAt: new Date(), handledBy: 'ops', ...set }).where(eq(submissions.id, id));

  it('filters by kind, state (overdue and spam included), cohort and text, with counts per state for every filter but the state', async () => {
    await invite('Ada Lovelace', 'ada@example.com');
    await decide(await invite('Bob Declined', 'bob@example.com', 'Bobco'), { reviewState: 'declined' });
    await decide(await invite('Sam Spam', 'sam@example.com', 'Spamco'), { reviewState: 'spam' });
    await decide(await invite('Wes Wait', 'wes@example.com', '50%_Off'), { reviewState: 'waitlisted' });
    const [cohort] = await database.db.insert(cohorts).values({ name: 'beta-1', startsOn: '2026-12-01', createdBy: 'ops' }).returning();
    await decide(await invite('Cat Accepted', 'cat@example.com', 'Catalytic'), { reviewState: 'accepted', cohortId: cohort!.id });
    await storeSubmission(database.db, privacyRequestBody());
    const late = await storeSubmission(database.db, { ...privacyRequestBody(), data: { ...privacyRequestBody().data, fullName: 'Olly Overdue', workEmail: 'olly@example.com' } });
    await database.db.update(submissions).set({ dueAt: new Date(Date.now() - 86_400_000) }).where(eq(submissions.id, late));
    const done = await storeSubmission(database.db, { ...privacyRequestBody(), data: { ...privacyRequestBody().data, fullName: 'Dora Done', workEmail: 'dora@example.com' } });
    await decide(done, {});

    const all = await page('');
    expect(all.requests.map((r) => r.fullName).sort()).toEqual(['Ada Lovelace', 'Bob Declined', 'Cat Accepted', 'Dora Done', 'Grace Hopper', 'Olly Overdue', 'Wes Wait']);
    expect(all.counts).toEqual({ received: 1, declined: 1, spam: 1, waitlisted: 1, accepted: 1, open: 2, done: 1, overdue: 1 });
    expect(all.next).toBeNull();
    expect(await names('?state=spam')).toEqual(['Sam Spam']);
    expect(await names('?state=overdue')).toEqual(['Olly Overdue']);
    expect(await names('?kind=privacy&state=open')).toEqual(['Grace Hopper', 'Olly Overdue']);
    expect(await names('?state=done&kind=privacy')).toEqual(['Dora Done']);
    expect(await names('?cohort=beta-1')).toEqual(['Cat Accepted']);
    expect((await page('?cohort=beta-1')).requests[0]).toMatchObject({ state: 'accepted', cohort: 'beta-1', status: 'done' });
    expect(await names('?kind=invite&state=received')).toEqual(['Ada Lovelace']);
    // text, any case, in the name, the email or the company; % and _ match only themselves
    expect(await names('?q=LOVELACE')).toEqual(['Ada Lovelace']);
    expect(await names('?q=bobco')).toEqual(['Bob Declined']);
    expect(await names('?q=CAT%40EXAMPLE')).toEqual(['Cat Accepted']);
    expect(await names('?q=50%25_')).toEqual(['Wes Wait']);
    expect(await names('?q=%25')).toEqual(['Wes Wait']);
    const searched = await page('?kind=invite&q=a');
    expect(searched.counts).toEqual({ received: 1, declined: 1, spam: 1, waitlisted: 1, accepted: 1 });

    // limit: digits only (Number() would read 1e2 as 100, 0x10 as 16), 1 to TEAM_QUEUE_PAGE_MAX
    expect((await client.call('GET', `/requests?limit=${TEAM_QUEUE_PAGE_MAX}`)).status).toBe(200);
    for (const bad of ['?limit=0', `?limit=${TEAM_QUEUE_PAGE_MAX + 1}`, '?limit=1e2', '?limit=0x10', '?limit=5.0', '?limit=%205', '?limit=', '?state=lost', '?kind=other', '?after=bm90LWEtY3Vyc29y', `?q=${'x'.repeat(201)}`, '?q=a%00', '?q=%1B%5B2J', '?cohort=a%00b', '?q=%E2%80%AE']) {
      const answer = await client.call('GET', `/requests${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.json).toHaveProperty('error');
    }
    // after: read as a cursor up to QUEUE_CURSOR_MAX_LENGTH characters, refused unread past it
    expect((await client.call('GET', `/requests?after=${'A'.repeat(QUEUE_CURSOR_MAX_LENGTH)}`)).json).toEqual({ error: 'Bad query: after is not a cursor of this queue' });
    const long = await client.call('GET', `/requests?after=${'A'.repeat(QUEUE_CURSOR_MAX_LENGTH + 1)}`);
    expect({ status: long.status, json: long.json }).toEqual({ status: 400, json: { error: 'Bad query: after' } });
    // of a cursor's shape, but no instant: refused as the database reads it, not answered 500
    const cursorOf = (at: string) => Buffer.from(JSON.stringify([at, '0b0d4a4e-9c5e-4c1e-8f2a-3f6f4f0a9b1c'])).toString('base64url');
    for (const at of ['2026-99-99 99:99:99+00', '2026-02-31 10:00:00+00', '0000-01-01 00:00:00+00', '2026-11-27 10:00:00+99:99:99']) {
      const answer = await client.call('GET', `/requests?after=${cursorOf(at)}`);
      expect(answer.status, at).toBe(400);
      expect(answer.json, at).toEqual({ error: 'Bad query: after is not a cursor of this queue' });
    }
    expect((await client.call('GET', `/requests?after=${cursorOf('2026-11-27 10:00:00.123456+00')}`)).status).toBe(200);
  });

  it('pages by keyset, newest first: requests stored between two pages, and rows received at the same instant, neither skip nor repeat', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 23; i += 1) ids.push(await invite(`Person ${i}`, `p${i}@example.com`));
    // five rows received at the very same microsecond: the id breaks the tie
    await database.db.update(submissions).set({ receivedAt: sql`(select received_at from submissions where id = ${ids[10]!})` }).where(inArray(submissions.id, ids.slice(8, 13)));
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const answer: Page = await page(`?limit=5${next ? `&after=${next}` : ''}`);
      expect(answer.requests.length).toBeLessThanOrEqual(5);
      seen.push(...answer.requests.map((r) => r.id));
      next = answer.next;
      pages += 1;
      if (pages === 2) for (let i = 0; i < 3; i += 1) await invite(`Late ${i}`, `late${i}@example.com`);
    } while (next);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...ids].sort());
    const order = await database.db.select({ id: submissions.id }).from(submissions).where(inArray(submissions.id, ids)).orderBy(sql`received_at desc, id desc`);
    expect(seen).toEqual(order.map((r) => r.id));
    // the three stored meanwhile lead the first page again, in the queue's order (PGlite's clock counts
    // milliseconds: two of them may share their instant, and then the id decides)
    const late = await database.db.select({ id: submissions.id }).from(submissions).where(sql`${submissions.email} like 'late%'`).orderBy(sql`received_at desc, id desc`);
    expect(late).toHaveLength(3);
    expect((await page('?limit=5')).requests.map((r) => r.id).slice(0, 3)).toEqual(late.map((r) => r.id));
  });

  it("shows a request's page: its summary, every field as submitted, the client metadata, the timeline and the same mailbox's other requests", async () => {
    const first = await invite('Ada Lovelace', 'ada@example.com');
    const second = await invite('Ada L.', 'Ada+beta@Example.com');
    await invite('Someone Else', 'else@example.com');
    const again = await invite('Ada L.', 'ADA+BETA@example.com');
    const answer = await client.call('GET', `/requests/${second}`);
    expect(answer.status).toBe(200);
    const detail = answer.json as { request: object; fields: object; metadata: object; timeline: object[]; sameMailbox: object[] };
    expect(detail.request).toMatchObject({ id: second, kind: 'invite', fullName: 'Ada L.', email: 'Ada+beta@example.com', state: 'received', duplicateOf: first });
    expect(detail.fields).toMatchObject({ fullName: 'Ada L.', workEmail: 'Ada+beta@Example.com', companyName: 'Analytical Ltd', primaryWorkloads: ['RAG'], consentGiven: true });
    expect(detail.fields).not.toHaveProperty('userAgent');
    expect(detail.metadata).toMatchObject({ clientIP: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', timezone: 'Europe/London', screenResolution: '1280x800' });
    expect(detail.timeline[0]).toMatchObject({ event: 'received', how: 'web form' });
    // the same address with its domain in other capitals is this address; its local part in other
    // capitals, or ada@, is the same mailbox but another address, linked as another spelling, maybe the
    // same person, maybe not
    const sameAgain = await invite('Ada L.', 'Ada+beta@EXAMPLE.COM');
    expect((await client.call('GET', `/requests/${second}`)).json).toMatchObject({
      sameMailbox: [
        { id: sameAgain, email: 'Ada+beta@example.com', sameAddress: true },
        { id: again, kind: 'invite', receivedAt: expect.any(String), state: 'received', email: 'ADA+BETA@example.com', sameAddress: false },
        { id: first, kind: 'invite', receivedAt: expect.any(String), state: 'received', email: 'ada@example.com', sameAddress: false },
      ],
    });

    // an id in capitals is the same id (RFC 9562 §4)
    const upper = await client.call('GET', `/requests/${second.toUpperCase()}`);
    expect(upper.status).toBe(200);
    expect((upper.json as { request: { id: string } }).request.id).toBe(second);
    expect((await client.call('GET', '/requests/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await client.call('GET', '/requests/not-a-uuid')).status).toBe(404);
  });
});
