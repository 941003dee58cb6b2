// @vitest-environment node
// What a decision would mail, shown before it is confirmed: over real HTTP behind a session, the exact
// mail of the outbox's own templates (server/outbox/messages/) for each request, nothing stored, nothing
// audited; and every refusal: no session (401), a foreign Origin (403), a body out of shape (400), an
// unknown request (404), an unknown cohort (409).
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { deliveries, privacyRecords, submissions, teamAudit } from '../../server/db/schema.ts';
import { TEAM_DECISION_BATCH_MAX } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { inviteAccepted } from '../../server/outbox/messages/inviteAccepted.ts';
import { inviteDeclined } from '../../server/outbox/messages/inviteDeclined.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { enrolledClient, type teamClient } from '../support/teamClient.ts';

const NO_SUCH = '00000000-0000-4000-8000-000000000000';

describe.each(testEngines())('mail preview in the console on $name', (engine) => {
  let database: Database;
  let server: RunningServer;
  let distDir: string;
  let client: ReturnType<typeof teamClient>;
  let emlDir: string;
  let sent = 0;
  const invite = () => storeSubmission(database.db, submissionBody({ workEmail: `applicant-${++sent}@example.com` }));
  const privacy = () => {
    const body = privacyRequestBody();
    body.data.workEmail = `requester-${++sent}@example.com`;
    return storeSubmission(database.db, body, { mail: { requester: true, team: false } });
  };
  const preview = (body: Record<string, unknown>) => client.call('POST', '/preview', { body });
  /** everything a preview must leave as it was */
  const stored = async () => ({
    submissions: await database.db.select().from(submissions),
    records: await database.db.select().from(privacyRecords),
    deliveries: (await database.db.select().from(deliveries)).length,
    audit: (await database.db.select().from(teamAudit)).map((a) => a.action),
  });

  beforeAll(async () => {
    distDir = await writeStandInSite();
  });
  beforeEach(async () => {
    sent = 0;
    database = await engine.open();
    const config = testConfig(distDir);
    emlDir = config.mail.emlDir;
    server = await startTestServer(config, createLogger('silent'), { database });
    client = await enrolledClient(server, database.db, { name: 'Kim Lee' });
  });
  afterEach(async () => {
    await server.stop();
    await database.close();
  });

  it("shows an acceptance's mail to each applicant, by the outbox's template, with the cohort's name and start date, and stores nothing", async () => {
    const ids = [await invite(), await invite()];
    expect((await client.call('POST', '/cohorts', { body: { name: 'Cohort 3', startsOn: '2027-01-15', capacity: 1 } })).status).toBe(201);
    const before = await stored();
    // two into a cohort of one: the decision would be refused, the preview answers all the same
    const answer = await preview({ decision: 'accept', ids, cohort: 'Cohort 3' });
    expect(answer.status).toBe(200);
    const { subject, text } = inviteAccepted({ siteUrl: server.publicOrigin, cohort: 'Cohort 3', startsOn: '2027-01-15' });
    expect(answer.json).toEqual({ mails: ids.map((id, i) => ({ id, to: `applicant-${i + 1}@example.com`, subject, text })) });
    expect(text).toContain('Your cohort is Cohort 3; it starts on January 15, 2027.');
    expect(await stored()).toEqual(before);
  });

  it('previews exactly the mail the outbox then sends for the decision and for the response', async () => {
    const [id, request] = [await invite(), await privacy()];
    expect((await client.call('POST', '/cohorts', { body: { name: 'Cohort 4', startsOn: '2027-03-01' } })).status).toBe(201);
    const decisions = [
      { preview: { decision: 'accept', ids: [id], cohort: 'Cohort 4' }, path: '/decisions', body: { decision: 'accept', ids: [id], from: { [id]: 'received' }, cohort: 'Cohort 4' }, message: 'invite-accepted' },
      { preview: { decision: 'respond', ids: [request], outcome: 'denied', reason: 'We could not confirm it is you.' }, path: '/privacy/respond', body: { id: request, from: 'unverified', outcome: 'denied', reason: 'We could not confirm it is you.' }, message: 'privacy-outcome' },
    ] as const;
    for (const decision of decisions) {
      const [shown] = ((await preview(decision.preview)).json as { mails: Array<{ to: string; subject: string; text: string }> }).mails;
      expect((await client.call('POST', decision.path, { body: decision.body })).status).toBe(200);
      const sentMail = await eventually(async () => {
        const [row] = await database.db.select().from(deliveries).where(eq(deliveries.message, decision.message));
        return row?.deliveredAt ? simpleParser(await readFile(`${emlDir}/${row.id}.eml`)) : undefined;
      });
      expect({ to: sentMail.to && 'text' in sentMail.to ? sentMail.to.text : '', subject: sentMail.subject, text: sentMail.text?.trimEnd() }).toEqual({ to: shown!.to, subject: shown!.subject, text: shown!.text });
    }
  });

  it('shows a decline with its reason, nothing for spam, reopen and verify, and a privacy response and extension with their facts', async () => {
    const id = await invite();
    const declined = await preview({ decision: 'decline', ids: [id], reason: 'We are full this quarter.' });
    expect(declined.json).toEqual({ mails: [{ id, to: 'applicant-1@example.com', ...pick(inviteDeclined({ siteUrl: server.publicOrigin, reason: 'We are full this quarter.' })) }] });
    expect((await preview({ decision: 'waitlist', ids: [id] })).json).toMatchObject({ mails: [{ id, subject: expect.any(String) }] });
    for (const decision of ['spam', 'reopen']) expect((await preview({ decision, ids: [id] })).json).toEqual({ mails: [] });

    const request = await privacy();
    const record = (await database.db.select().from(privacyRecords).where(eq(privacyRecords.id, request)))[0]!;
    expect((await preview({ decision: 'verify', ids: [request] })).json).toEqual({ mails: [] });
    const denied = await preview({ decision: 'respond', ids: [request], outcome: 'denied', reason: 'We could not confirm it is you.' });
    expect(denied.status).toBe(200);
    const [mail] = (denied.json as { mails: Array<{ to: string; subject: string; text: string }> }).mails;
    expect(mail).toMatchObject({ to: 'requester-2@example.com', subject: 'Our answer to your privacy request' });
    expect(mail!.text).toContain('We have not done what you asked.\nWhy: We could not confirm it is you.');
    expect(mail!.text).toContain('privacy@sonde.dev');
    const attached = await preview({ decision: 'respond', ids: [request], outcome: 'complied', attachSubject: true });
    expect((attached.json as { mails: Array<{ text: string }> }).mails[0]!.text).toContain('is attached as a JSON file');
    const extended = await preview({ decision: 'extend', ids: [request], reason: 'Two systems to search.' });
    const due = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(record.dueAt.getTime() + 45 * 86_400_000));
    const extension = (extended.json as { mails: Array<{ subject: string; text: string }> }).mails[0]!;
    expect(extension.subject).toBe('We need more time to answer your privacy request');
    expect(extension.text).toContain(`We will answer by ${due}`);
    expect(extension.text).toContain('Why: Two systems to search.');
    expect((await database.db.select().from(teamAudit)).map((a) => a.action)).not.toContain('decision');
  });

  it('answers 404 for an unknown request or one not of the decision\'s kind, 409 for an unknown cohort', async () => {
    const [id, request] = [await invite(), await privacy()];
    for (const body of [
      { decision: 'waitlist', ids: [id, NO_SUCH] },
      { decision: 'spam', ids: [NO_SUCH] },
      { decision: 'decline', ids: [request] },
      { decision: 'verify', ids: [id] },
      { decision: 'respond', ids: [id], outcome: 'complied' },
    ]) {
      const answer = await preview(body);
      expect(answer.status, JSON.stringify(body)).toBe(404);
      expect(answer.json).toEqual({ error: 'No such request' });
    }
    const unknownCohort = await preview({ decision: 'accept', ids: [id], cohort: 'Nope' });
    expect(unknownCohort.status).toBe(409);
    expect(unknownCohort.json).toEqual({ error: 'no cohort "Nope": create it first' });
  });

  it.each([
    ['an unknown decision', { decision: 'approve', ids: [NO_SUCH] }, /^Bad preview: decision/],
    ['no ids', { decision: 'waitlist', ids: [] }, /^Bad preview: ids/],
    ['an id that is not a UUID', { decision: 'waitlist', ids: ['nope'] }, /^Bad preview: ids\.0/],
    ['one id more than TEAM_DECISION_BATCH_MAX', { decision: 'spam', ids: Array.from({ length: TEAM_DECISION_BATCH_MAX + 1 }, () => NO_SUCH) }, /^Bad preview: ids/],
    ['an acceptance without its cohort', { decision: 'accept', ids: [NO_SUCH] }, /^Bad preview: cohort: required to accept/],
    ['a response without its outcome', { decision: 'respond', ids: [NO_SUCH] }, /^Bad preview: outcome: required to respond/],
    ['an extension without its reason', { decision: 'extend', ids: [NO_SUCH] }, /^Bad preview: reason: required to extend/],
    ['an escape code in the reason', { decision: 'decline', ids: [NO_SUCH], reason: 'a\u001b[2J' }, /^Bad preview: reason: the text contains a/],
  ])('refuses a body out of shape with 400: %s', async (_what, body, message) => {
    const answer = await preview(body);
    expect(answer.status).toBe(400);
    expect((answer.json as { error: string }).error).toMatch(message);
  });

  it.each([
    ['an email address in an extension\'s reason', 'extend', { reason: 'Asked by ada@example.com' }],
    ['an email address in a response\'s reason', 'respond', { outcome: 'partly', reason: 'Asked by ada @ example.com' }],
    ['a denial without its reason', 'respond', { outcome: 'denied' }],
    ['a partial answer without its reason', 'respond', { outcome: 'partly' }],
  ])('refuses with 400, as the step itself does, %s', async (_what, step, fields) => {
    const request = await privacy();
    const taken = await client.call('POST', `/privacy/${step}`, { body: { id: request, from: 'unverified', ...fields } });
    const previewed = await preview({ decision: step, ids: [request], ...fields });
    expect([taken.status, previewed.status]).toEqual([400, 400]);
    expect((previewed.json as { error: string }).error.replace(/^Bad preview: /, '')).toBe((taken.json as { error: string }).error.replace(/^Bad step: /, ''));
  });

  it('refuses a preview without a session (401) and from a foreign origin (403)', async () => {
    const body = { decision: 'waitlist', ids: [await invite()] };
    expect((await client.call('POST', '/preview', { body, cookie: null })).status).toBe(401);
    expect((await client.call('POST', '/preview', { body, origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.call('POST', '/preview', { body, origin: server.url })).status).toBe(403);
  });
});

/** What `probe` resolves to once it is defined, asked every 50 ms for at most 10 s. */
async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('not delivered within 10 s');
}

/** A message's subject and text, as a preview shows them. */
function pick(mail: { subject: string; text: string }): { subject: string; text: string } {
  return { subject: mail.subject, text: mail.text };
}
