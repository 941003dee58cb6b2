// @vitest-environment node
// The team's steps on a privacy request in the console, over real HTTP behind a session: verify, extend
// and respond through the same chart and statements as the command line (server/db/privacySteps.ts), by
// the signed-in member, audited without the reason; and every refusal: no session (401), a foreign Origin
// (403), a body out of shape or a missing basis (400), a step the chart does not take (409), no such
// privacy request (404).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SubmissionBody } from '#shared/submission';
import type { Database } from '../../server/db/database.ts';
import { deliveries, privacyRecords, teamAudit } from '../../server/db/schema.ts';
import type { RunningServer } from '../../server/main.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import type { teamClient } from '../support/teamClient.ts';
import { signedInConsole } from '../support/teamServer.ts';

/** A privacy request with these types, from its own address. */
function privacyRequest(types: string, email: string): SubmissionBody {
  const body = privacyRequestBody();
  body.data.workEmail = email;
  body.data.useCaseDescription = `CCPA Privacy Rights Request\nRequest types: ${types}\nDetails: None provided`;
  return body;
}

const NO_SUCH = '00000000-0000-4000-8000-000000000000';

describe.each(testEngines())('privacy steps in the console on $name', (engine) => {
  let database: Database;
  let server: RunningServer;
  let client: ReturnType<typeof teamClient>;
  let sent = 0;
  const store = (types: string) => storeSubmission(database.db, privacyRequest(types, `requester-${++sent}@example.com`), { mail: { requester: true, team: false } });
  const record = async (id: string) => (await database.db.select().from(privacyRecords).where(eq(privacyRecords.id, id)))[0]!;
  const mails = async (id: string) => (await database.db.select().from(deliveries).where(eq(deliveries.submissionId, id))).map((d) => d.message);
  const audited = async () => (await database.db.select().from(teamAudit).where(eq(teamAudit.action, 'decision'))).map((a) => [a.requestId, a.detail]);

  signedInConsole(engine, (opened) => ({ database, server, client } = opened), { name: 'Kim Lee' });

  it('verifies, extends and responds as the signed-in member, answers each with the request, mails the requester, and audits each step without its reason', async () => {
    const id = await store('Delete, Access/Know');
    // the id in capitals is the same request (RFC 9562 §4), answered and audited by its stored id
    const verified = await client.call('POST', '/privacy/verify', { body: { id: id.toUpperCase(), from: 'unverified' } });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ request: { id, kind: 'privacy', status: 'open', verification: 'verified' } });
    expect(await record(id)).toMatchObject({ verifiedBy: 'team', verifiedAt: expect.any(Date) });
    // verified already: done, as the command line prints it, and not audited again
    expect((await client.call('POST', '/privacy/verify', { body: { id, from: 'verified' } })).status).toBe(200);

    const dueBefore = (await record(id)).dueAt;
    const extended = await client.call('POST', '/privacy/extend', { body: { id, from: 'verified', reason: 'We are gathering the records from two systems.' } });
    expect(extended.status).toBe(200);
    const dueAfter = (await record(id)).dueAt;
    expect(dueAfter.getTime() - dueBefore.getTime()).toBe(45 * 86_400_000);
    expect(extended.json).toMatchObject({ request: { id, dueAt: dueAfter.toISOString() } });

    const answered = await client.call('POST', '/privacy/respond', { body: { id, from: 'verified.extended', outcome: 'complied', attachSubject: true } });
    expect(answered.status).toBe(200);
    expect(answered.json).toMatchObject({ request: { id, status: 'done', outcome: 'complied', handledBy: 'Kim Lee' } });
    expect(await record(id)).toMatchObject({ outcome: 'complied', respondedBy: 'Kim Lee' });
    expect(await mails(id)).toEqual(expect.arrayContaining(['privacy-confirmation', 'privacy-extension', 'privacy-outcome']));
    expect(await audited()).toEqual([[id, 'verify'], [id, 'extend'], [id, 'respond']]);
    expect(JSON.stringify(await database.db.select().from(teamAudit))).not.toContain('two systems');
  });

  it('refuses with 409, in the API\'s words, what the chart does not take: a second extension, an unverified full answer, verifying or answering an answered request; nothing changes', async () => {
    const id = await store('Access/Know');
    const extend = (from: string) => client.call('POST', '/privacy/extend', { body: { id, from, reason: 'Waiting on a vendor.' } });
    expect((await extend('unverified')).status).toBe(200);
    const twice = await extend('unverified.extended');
    expect(twice.status).toBe(409);
    expect(twice.json).toEqual({ error: expect.stringMatching(new RegExp(`^request ${id} was already extended on .*: the regulations allow one extension$`)) });

    const complied = await client.call('POST', '/privacy/respond', { body: { id, from: 'unverified.extended', outcome: 'complied' } });
    expect(complied.status).toBe(409);
    expect((complied.json as { error: string }).error).toMatch(new RegExp(`^request ${id} is not verified: a request to know`));
    const attached = await client.call('POST', '/privacy/respond', { body: { id, from: 'unverified.extended', outcome: 'partly', reason: 'Some of it.', attachSubject: true } });
    expect(attached.json).toEqual({ error: `request ${id} is not verified: its requester's data is not sent before they confirm it is them (11 CCR §7060)` });
    expect((await record(id)).respondedAt).toBeNull();

    // an opt-out needs no identity check: complied with as it is; then nothing is left to verify, nor to answer
    const optOut = await store('Opt-Out');
    expect((await client.call('POST', '/privacy/respond', { body: { id: optOut, from: 'notNeeded', outcome: 'complied' } })).status).toBe(200);
    const verifyAnswered = await client.call('POST', '/privacy/verify', { body: { id: optOut, from: 'responded' } });
    expect(verifyAnswered.status).toBe(409);
    expect((verifyAnswered.json as { error: string }).error).toMatch(new RegExp(`^request ${optOut} was already answered on .*: there is nothing left to verify it for$`));
    expect((await record(optOut)).verifiedAt).toBeNull();
    const again = await client.call('POST', '/privacy/respond', { body: { id: optOut, from: 'responded', outcome: 'complied' } });
    expect(again.status).toBe(409);
    expect((again.json as { error: string }).error).toMatch(/was already answered on /);
    expect(await audited()).toEqual([[id, 'extend'], [optOut, 'respond']]);
  });

  it.each([
    ['respond', { outcome: 'denied' }, /^Bad step: reason: required when the outcome is denied: the requester is told why \(11 CCR §7022, §7024\)$/],
    ['respond', { outcome: 'partly' }, /^Bad step: reason: required when the outcome is partly/],
    ['respond', { outcome: 'maybe' }, /^Bad step: outcome/],
    ['respond', { outcome: 'denied', reason: 'Asked by ada@example.com' }, /^Bad step: reason: the reason is kept after the request is erased/],
    ['respond', { outcome: 'complied', attachSubject: 'yes' }, /^Bad step: attachSubject/],
    ['extend', {}, /^Bad step: reason/],
    ['extend', { reason: '' }, /^Bad step: reason: the text/],
    ['extend', { reason: 'a\u001b[2J' }, /^Bad step: reason: the text contains a/],
    ['verify', { from: undefined }, /^Bad step: from/],
    ['verify', { from: 'overdue' }, /^Bad step: from/],
  ])('refuses with 400 a body out of shape or a missing basis: %s %j', async (step, fields, message) => {
    const id = await store('Delete');
    const answer = await client.call('POST', `/privacy/${step}`, { body: { id, from: 'unverified', ...fields } });
    expect(answer.status).toBe(400);
    expect((answer.json as { error: string }).error).toMatch(message);
    expect(await record(id)).toMatchObject({ respondedAt: null, extendedAt: null });
  });

  it('answers 404 for an unknown id, an id that is not a UUID, and an invite request\'s id', async () => {
    const invite = await storeSubmission(database.db, submissionBody({ workEmail: 'applicant@example.com' }));
    for (const id of [NO_SUCH, 'not-an-id', invite]) {
      for (const [step, fields] of [['verify', {}], ['extend', { reason: 'More time.' }], ['respond', { outcome: 'complied' }]] as const) {
        const answer = await client.call('POST', `/privacy/${step}`, { body: { id, from: 'unverified', ...fields } });
        expect(answer.status, `${step} ${id}`).toBe(404);
        expect(answer.json).toEqual({ error: 'No such request' });
      }
    }
    expect((await client.call('POST', '/privacy/verify', { body: {} })).status).toBe(400);
  });

  it('refuses every step without a session (401) and from a foreign origin (403)', async () => {
    const id = await store('Delete');
    for (const [step, body] of [['verify', { id, from: 'unverified' }], ['extend', { id, from: 'unverified', reason: 'More time.' }], ['respond', { id, from: 'unverified', outcome: 'denied', reason: 'No.' }]] as const) {
      expect((await client.call('POST', `/privacy/${step}`, { body, cookie: null })).status, step).toBe(401);
      expect((await client.call('POST', `/privacy/${step}`, { body, origin: 'https://evil.example' })).status, step).toBe(403);
      expect((await client.call('POST', `/privacy/${step}`, { body, origin: server.url })).status, step).toBe(403);
    }
    expect(await record(id)).toMatchObject({ verifiedAt: null, extendedAt: null, respondedAt: null });
    expect(await audited()).toEqual([]);
  });
});
