// @vitest-environment node
// Two members with one request open decide at once, over real HTTP, each with their own session: the
// decision is taken only from the state each saw, so exactly one wins and the applicant gets one mail;
// the other gets 409 naming the state now, who and when. On PGlite and on PostgreSQL.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { deliveries, submissions } from '../../server/db/schema.ts';
import type { RunningServer } from '../../server/main.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { enrolledClient, type teamClient } from '../support/teamClient.ts';
import { signedInConsole } from '../support/teamServer.ts';

describe.each(testEngines())('a decision made on a stale screen on $name', (engine) => {
  let database: Database;
  let server: RunningServer;
  let kim: ReturnType<typeof teamClient>;
  signedInConsole(engine, (opened) => ({ database, server, client: kim } = opened), { name: 'Kim Lee' });
  const mailsOf = async (id: string) => (await database.db.select().from(deliveries).where(eq(deliveries.submissionId, id))).filter((d) => d.channel === 'mail' && ['invite-accepted', 'invite-waitlisted', 'invite-declined'].includes(d.message ?? ''));

  it('lets exactly one of two members racing on one request win; the other gets 409 with the state, who and when, and the applicant one mail', async () => {
    const ada = await enrolledClient(server, database.db, { email: 'ada@sonde.dev', name: 'Ada Byron' });
    const id = await storeSubmission(database.db, submissionBody({ workEmail: 'applicant@example.com' }));
    const before = (await mailsOf(id)).length;
    const answers = await Promise.all([
      kim.call('POST', '/decisions', { body: { decision: 'waitlist', ids: [id], from: { [id]: 'received' } } }),
      ada.call('POST', '/decisions', { body: { decision: 'decline', ids: [id], from: { [id]: 'received' } } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers[0]!.status === 200 ? { state: 'waitlisted', by: 'Kim Lee' } : { state: 'declined', by: 'Ada Byron' };
    const lost = answers.find((a) => a.status === 409)!;
    expect(lost.json).toMatchObject({
      changed: [{ id, seen: 'received', state: winner.state, action: winner.state, by: winner.by, at: expect.stringMatching(/Z$/) }],
      refusals: [expect.stringMatching(new RegExp(`^request ${id} is ${winner.state}, not received as seen: ${winner.state} by ${winner.by} at `))],
    });
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row!.reviewState).toBe(winner.state);
    expect((await mailsOf(id)).length - before).toBe(1);
  });

  it('refuses a privacy step taken from a course state that changed, naming the step, who and when; nothing is written', async () => {
    const ada = await enrolledClient(server, database.db, { email: 'ada@sonde.dev', name: 'Ada Byron' });
    const id = await storeSubmission(database.db, privacyRequestBody(), { mail: { requester: true, team: false } });
    expect((await kim.call('POST', '/privacy/verify', { body: { id, from: 'unverified' } })).status).toBe(200);
    const count = async () => (await database.db.select().from(deliveries).where(eq(deliveries.submissionId, id))).length;
    const sent = await count();
    const stale = await ada.call('POST', '/privacy/respond', { body: { id, from: 'unverified', outcome: 'denied', reason: 'We could not confirm it is you.' } });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ changed: [{ id, seen: 'unverified', state: 'verified', action: 'verified', by: 'Kim Lee', at: expect.stringMatching(/Z$/) }] });
    expect(await count()).toBe(sent);
  });
});
