// @vitest-environment node
// The team's decisions in the console, over real HTTP behind a session: the same chart and statement as
// the command line (server/db/decisions.ts), decided by the signed-in member, all or nothing, audited;
// notes and cohorts; and every refusal: no session, a foreign Origin, a body out of shape, a decision
// the chart does not allow.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { cohorts, deliveries, submissions, teamAudit, timeline } from '../../server/db/schema.ts';
import { TEXT_LIMITS } from '#shared/submission';
import { TEAM_COHORT_CAPACITY_MAX, TEAM_DECISION_BATCH_MAX } from '../../server/limits.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { submissionBody } from '../support/submissionBody.ts';
import type { teamClient } from '../support/teamClient.ts';
import { signedInConsole } from '../support/teamServer.ts';

describe.each(testEngines())('decisions in the console on $name', (engine) => {
  let database: Database;
  let client: ReturnType<typeof teamClient>;
  let sent = 0;
  const invite = () => storeSubmission(database.db, submissionBody({ workEmail: `applicant-${++sent}@example.com` }));
  /** each id's review state as the member saw it: what every decision carries */
  const seen = (ids: string[], state = 'received') => Object.fromEntries(ids.map((id) => [id, state]));
  const stateOf = async (id: string) => (await database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!.reviewState;

  signedInConsole(engine, (opened) => ({ database, client } = opened), { name: 'Kim Lee' });

  it(`takes a cohort of TEAM_COHORT_CAPACITY_MAX (${TEAM_COHORT_CAPACITY_MAX}) places and refuses one more`, async () => {
    expect((await client.call('POST', '/cohorts', { body: { name: 'Large', startsOn: '2027-01-15', capacity: TEAM_COHORT_CAPACITY_MAX } })).status).toBe(201);
    const over = await client.call('POST', '/cohorts', { body: { name: 'Larger', startsOn: '2027-01-15', capacity: TEAM_COHORT_CAPACITY_MAX + 1 } });
    expect(over.status).toBe(400);
    expect(over.json).toEqual({ error: expect.stringMatching(/^Bad cohort: .*capacity/) });
  });

  it('creates a cohort, accepts a selection into it as the signed-in member, and audits each decision without its text', async () => {
    const ids = [await invite(), await invite()];
    expect((await client.call('POST', '/cohorts', { body: { name: 'Cohort 3', startsOn: '2027-01-15', capacity: 2 } })).status).toBe(201);
    expect((await client.call('POST', '/cohorts', { body: { name: 'Cohort 3', startsOn: '2027-02-01' } })).status).toBe(409);
    const answer = await client.call('POST', '/decisions', { body: { decision: 'accept', ids, from: seen(ids), cohort: 'Cohort 3', note: 'Strong fit' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ decided: ids.map((id) => ({ id, from: 'received', to: 'accepted' })) });
    for (const id of ids) expect(await stateOf(id)).toBe('accepted');
    const entries = await database.db.select().from(timeline).where(eq(timeline.submissionId, ids[0]!));
    expect(entries.map((entry) => [entry.action, entry.actor])).toEqual(expect.arrayContaining([['accepted', 'Kim Lee'], ['note', 'Kim Lee']]));
    const mails = await database.db.select().from(deliveries).where(eq(deliveries.message, 'invite-accepted'));
    expect(mails).toHaveLength(2);
    const audit = await database.db.select().from(teamAudit).where(eq(teamAudit.action, 'decision'));
    expect(audit.map((entry) => [entry.requestId, entry.detail]).sort()).toEqual(ids.map((id) => [id, 'accept']).sort());
    expect(JSON.stringify(audit)).not.toContain('Strong fit');
    const cohorts = await client.call('GET', '/cohorts');
    expect(cohorts.json).toEqual({ cohorts: [expect.objectContaining({ name: 'Cohort 3', startsOn: '2027-01-15', capacity: 2, accepted: 2 })] });
  });

  it('stores a cohort\'s name trimmed and NFKC-normalised, and refuses with 409 "Two ", " Two", "Two\\u00a0" and "two" once "Two" exists; the one cohort added is audited once', async () => {
    const created = await client.call('POST', '/cohorts', { body: { name: ' Ｔwo\u00a0', startsOn: '2027-01-15', capacity: 1 } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ cohort: { name: 'Two' } });
    for (const name of ['Two', 'Two ', ' Two', 'Two\u00a0', 'two']) {
      const again = await client.call('POST', '/cohorts', { body: { name, startsOn: '2027-02-01' } });
      expect(again.status, JSON.stringify(name)).toBe(409);
    }
    expect((await database.db.select().from(cohorts)).map((cohort) => cohort.name)).toEqual(['Two']);
    const added = await database.db.select().from(teamAudit).where(eq(teamAudit.action, 'cohort added'));
    expect(added.map((entry) => [entry.memberId === null, entry.detail])).toEqual([[false, 'console']]);
  });

  it('refuses, with 409 and each reason, a decision the chart does not allow, a full cohort, and a batch with one bad id: nothing changes', async () => {
    const [a, b] = [await invite(), await invite()];
    expect((await client.call('POST', '/cohorts', { body: { name: 'Tiny', startsOn: '2027-01-15', capacity: 1 } })).status).toBe(201);
    expect((await client.call('POST', '/decisions', { body: { decision: 'decline', ids: [a], from: seen([a]), reason: 'Not yet' } })).status).toBe(200);
    const refused = await client.call('POST', '/decisions', { body: { decision: 'accept', ids: [a, b], from: { ...seen([a], 'declined'), ...seen([b]) }, cohort: 'Tiny' } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ refusals: [`request ${a} is declined: accept is possible only when it is received or waitlisted`] });
    const full = await client.call('POST', '/decisions', { body: { decision: 'waitlist', ids: [b, '00000000-0000-4000-8000-000000000000'], from: seen([b, '00000000-0000-4000-8000-000000000000']) } });
    expect(full.status).toBe(409);
    expect(full.json).toMatchObject({ refusals: ['no request 00000000-0000-4000-8000-000000000000'] });
    expect([await stateOf(a), await stateOf(b)]).toEqual(['declined', 'received']);
    expect(await database.db.select().from(teamAudit).where(eq(teamAudit.action, 'decision'))).toHaveLength(1);
  });

  it('takes an id in capitals as the same request (RFC 9562 §4), once when it is given in both cases, for a decision, a note and a preview', async () => {
    const id = await invite();
    const decided = await client.call('POST', '/decisions', { body: { decision: 'waitlist', ids: [id.toUpperCase(), id], from: seen([id.toUpperCase()]) } });
    expect(decided.status).toBe(200);
    expect(decided.json).toEqual({ decided: [{ id, from: 'received', to: 'waitlisted' }] });
    expect(await stateOf(id)).toBe('waitlisted');
    expect((await client.call('POST', '/notes', { body: { requestId: id.toUpperCase(), text: 'Called them' } })).status).toBe(201);
    expect((await database.db.select().from(timeline).where(eq(timeline.submissionId, id))).map((entry) => entry.action)).toContain('note');
    const preview = await client.call('POST', '/preview', { body: { decision: 'decline', ids: [id.toUpperCase()] } });
    expect(preview.status).toBe(200);
    expect((preview.json as { mails: Array<{ id: string }> }).mails.map((mail) => mail.id)).toEqual([id]);
  });

  it('keeps a note with the member and an audit entry; an unknown request is 404', async () => {
    const id = await invite();
    expect((await client.call('POST', '/notes', { body: { requestId: id, text: 'Called them' } })).status).toBe(201);
    expect((await database.db.select().from(timeline).where(eq(timeline.submissionId, id)))[0]).toMatchObject({ action: 'note', actor: 'Kim Lee', reason: 'Called them' });
    expect((await client.call('POST', '/notes', { body: { requestId: '00000000-0000-4000-8000-000000000000', text: 'x' } })).status).toBe(404);
    expect((await client.call('POST', '/notes', { body: { requestId: 'not-an-id', text: 'x' } })).status).toBe(404);
  });

  it.each([
    ['an unknown decision', { decision: 'approve', ids: ['00000000-0000-4000-8000-000000000000'] }, /decision/],
    ['no ids', { decision: 'waitlist', ids: [] }, /ids/],
    ['an id that is not a UUID', { decision: 'waitlist', ids: ['nope'] }, /ids\.0/],
    ['one id more than TEAM_DECISION_BATCH_MAX', { decision: 'waitlist', ids: Array.from({ length: TEAM_DECISION_BATCH_MAX + 1 }, () => '00000000-0000-4000-8000-000000000000') }, /ids/],
    ['an escape code in the reason', { decision: 'decline', ids: ['00000000-0000-4000-8000-000000000000'], from: seen(['00000000-0000-4000-8000-000000000000']), reason: 'a\u001b[2J' }, /reason: the text contains a/],
    ['an acceptance without its cohort', { decision: 'accept', ids: ['00000000-0000-4000-8000-000000000000'], from: seen(['00000000-0000-4000-8000-000000000000']) }, /^Bad decision: cohort: required to accept$/],
    [`a reason of TEXT_LIMITS.long + 1 characters`, { decision: 'decline', ids: ['00000000-0000-4000-8000-000000000000'], from: seen(['00000000-0000-4000-8000-000000000000']), reason: 'x'.repeat(TEXT_LIMITS.long + 1) }, new RegExp(`^Bad decision: reason: at most ${TEXT_LIMITS.long} characters$`)],
    ['no state seen for an id (from)', { decision: 'waitlist', ids: ['00000000-0000-4000-8000-000000000000'] }, /^Bad decision: from: /],
    ['a state seen for another id only', { decision: 'waitlist', ids: ['00000000-0000-4000-8000-000000000000'], from: seen(['00000000-0000-4000-8000-000000000001']) }, /^Bad decision: from\.00000000-0000-4000-8000-000000000000: required/],
    ['a seen state the review does not have', { decision: 'waitlist', ids: ['00000000-0000-4000-8000-000000000000'], from: seen(['00000000-0000-4000-8000-000000000000'], 'open') }, /^Bad decision: from\./],
  ])('refuses a body out of shape with 400: %s', async (_what, body, message) => {
    const answer = await client.call('POST', '/decisions', { body });
    expect(answer.status).toBe(400);
    expect((answer.json as { error: string }).error).toMatch(message);
  });

  it('takes a batch of exactly TEAM_DECISION_BATCH_MAX ids to the chart (refused there, not by shape)', async () => {
    const ids = Array.from({ length: TEAM_DECISION_BATCH_MAX }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect((await client.call('POST', '/decisions', { body: { decision: 'waitlist', ids, from: seen(ids) } })).status).toBe(409);
  });

  it("takes a cohort's start from the year 0001: ISO 8601's year 0000 is no date PostgreSQL keeps (400, not 500)", async () => {
    expect((await client.call('POST', '/cohorts', { body: { name: 'Old', startsOn: '0000-12-31' } })).status).toBe(400);
    expect((await client.call('POST', '/cohorts', { body: { name: 'Old', startsOn: '0001-01-01' } })).status).toBe(201);
  });

  it("takes a cohort's name of TEXT_LIMITS.short characters, which the queue's cohort filter can name, and refuses one more (400)", async () => {
    const longest = 'C'.repeat(TEXT_LIMITS.short);
    const over = await client.call('POST', '/cohorts', { body: { name: `${longest}C`, startsOn: '2027-01-01' } });
    expect(over.status).toBe(400);
    expect(over.json).toEqual({ error: `Bad cohort: name: at most ${TEXT_LIMITS.short} characters` });
    // counted as stored (NFC): U+FB2C is three characters in NFC
    const widened = await client.call('POST', '/cohorts', { body: { name: '\uFB2C'.repeat(67), startsOn: '2027-01-01' } });
    expect(widened.json).toEqual({ error: `Bad cohort: name: at most ${TEXT_LIMITS.short} characters` });
    expect((await client.call('POST', '/cohorts', { body: { name: longest, startsOn: '2027-01-01' } })).status).toBe(201);
    const id = await invite();
    expect((await client.call('POST', '/decisions', { body: { decision: 'accept', ids: [id], from: seen([id]), cohort: longest } })).status).toBe(200);
    const queue = await client.call('GET', `/requests?cohort=${longest}`);
    expect((queue.json as { requests: Array<{ id: string }> }).requests.map((request) => request.id)).toEqual([id]);
    // a cohort named before the limit keeps its name: decisions still name it
    await database.db.insert(cohorts).values({ name: `${longest}, made before the limit`, startsOn: '2027-02-01', createdBy: 'kim' });
    const older = await invite();
    expect((await client.call('POST', '/decisions', { body: { decision: 'accept', ids: [older], from: seen([older]), cohort: `${longest}, made before the limit` } })).status).toBe(200);
  });

  it('refuses every decision without a session (401) and from a foreign origin (403)', async () => {
    const id = await invite();
    for (const [path, body] of [['/decisions', { decision: 'spam', ids: [id], from: seen([id]) }], ['/notes', { requestId: id, text: 'x' }], ['/cohorts', { name: 'C', startsOn: '2027-01-01' }]] as const) {
      expect((await client.call('POST', path, { body, cookie: null })).status, path).toBe(401);
      expect((await client.call('POST', path, { body, origin: 'https://evil.example' })).status, path).toBe(403);
    }
    expect((await client.call('GET', '/cohorts', { cookie: null })).status).toBe(401);
    expect(await stateOf(id)).toBe('received');
  });
});
