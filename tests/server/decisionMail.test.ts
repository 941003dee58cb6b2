// @vitest-environment node
// The mail of the team's decisions on an invite request (server/outbox/messages/invite{Accepted,
// Waitlisted,Declined}.ts): each template's words, and the mail channel writing each from a stored row.
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { INVITE_NEXT_STEPS } from '#shared/inviteSteps';
import type { Database } from '../../server/db/database.ts';
import { cohorts, deliveries, submissions, type MailMessage, type ReviewState } from '../../server/db/schema.ts';
import { createLogger } from '../../server/logger.ts';
import { composeMail, mailChannel, type MailSettings } from '../../server/outbox/mail.ts';
import { inviteAccepted } from '../../server/outbox/messages/inviteAccepted.ts';
import { inviteDeclined } from '../../server/outbox/messages/inviteDeclined.ts';
import { inviteWaitlisted } from '../../server/outbox/messages/inviteWaitlisted.ts';
import type { Delivery } from '../../server/outbox/channel.ts';
import { startOutbox } from '../../server/outbox/sender.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { until } from '../support/mailServer.ts';
import { submissionBody } from '../support/submissionBody.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';

const siteUrl = 'https://sonde.dev';

describe('the decision templates', () => {
  it("accepted: you're in, the cohort and its start date (long, in UTC), API credentials from the onboarding, as /thank-you promised", () => {
    const mail = inviteAccepted({ siteUrl, cohort: 'Cohort 3', startsOn: '2027-01-15' });
    expect(mail.subject).toBe("You're in: welcome to the Sonde beta");
    expect(mail.text).toContain("you're in");
    expect(mail.text).toContain('Approved applicants are placed in a cohort and given API credentials.'); // spec §2, word for word
    expect(mail.text).toContain('Your cohort is Cohort 3; it starts on January 15, 2027.');
    expect(mail.text).toContain('Your API credentials will follow from our API onboarding.');
    expect(mail.html).toContain('Your cohort is <strong>Cohort 3</strong>; it starts on <strong>January 15, 2027</strong>.');
    // the first of the month, whatever the machine's time zone: the date is a day, not an instant
    expect(inviteAccepted({ siteUrl, cohort: 'Cohort 1', startsOn: '2027-01-01' }).text).toContain('it starts on January 1, 2027.');
  });

  it('accepted: the cohort name, the team\'s text, is escaped in the HTML part', () => {
    const mail = inviteAccepted({ siteUrl, cohort: 'Early <b>birds</b> & co', startsOn: '2027-03-01' });
    expect(mail.text).toContain('Your cohort is Early <b>birds</b> & co; it');
    expect(mail.html).toContain('<strong>Early &lt;b&gt;birds&lt;/b&gt; &amp; co</strong>');
    expect(mail.html).not.toContain('<b>birds');
  });

  it('waitlisted: the waitlist, the rolling basis, and that the team reaches out when ready to onboard (spec §2)', () => {
    const mail = inviteWaitlisted({ siteUrl });
    expect(mail.subject).toBe('Your Sonde invite request: on the waitlist');
    expect(mail.text).toContain('put it on our waitlist');
    expect(mail.text).toContain('The beta admits teams on a rolling basis.');
    expect(mail.text).toContain(INVITE_NEXT_STEPS[1].body);
    expect(mail.html).toContain(`<p>The beta admits teams on a rolling basis. ${INVITE_NEXT_STEPS[1].body}</p>`);
  });

  it("declined: polite, with the team's reason when one is given, escaped in the HTML part; none stated without one", () => {
    const reason = 'We focus on <b>EU</b> teams & "regulated" workloads first';
    const mail = inviteDeclined({ siteUrl, reason });
    expect(mail.subject).toBe('Your Sonde invite request');
    expect(mail.text).toContain('Thank you for your interest in the Sonde beta');
    expect(mail.text).toContain('we are not able to offer you a place in the beta at this time');
    expect(mail.text).toContain(`Our reason: ${reason}`);
    expect(mail.html).toContain('<p>Our reason: We focus on &lt;b&gt;EU&lt;/b&gt; teams &amp; &quot;regulated&quot; workloads first</p>');
    expect(mail.html).not.toContain('<b>EU');
    for (const none of [null, '', '   ']) {
      const without = inviteDeclined({ siteUrl, reason: none });
      expect(without.text).not.toContain('reason');
      expect(without.html).not.toContain('reason');
    }
  });

  it('an acceptance row without its cohort is not composed: an error the sender keeps and retries', () => {
    const delivery = {
      id: '00000000-0000-4000-8000-00000000000a',
      message: 'invite-accepted',
      payload: { cohort: 'Cohort 3' },
      body: submissionBody(),
    } as unknown as Delivery;
    const settings: MailSettings = { smtpUrl: undefined, emlDir: '/nonexistent', from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined };
    expect(() => composeMail(delivery, settings, siteUrl)).toThrow('the acceptance has no cohort');
    expect(composeMail({ ...delivery, payload: { cohort: 'Cohort 3', startsOn: '2027-01-15' } }, settings, siteUrl).to).toBe('ada@example.com');
  });
});

describe.each(testEngines())('the decision mail through the outbox on $name', (engine) => {
  const cleanup = cleanupAfterEach();

  // what a visitor typed, hostile: none of it may reach the applicant's mail
  const hostile = {
    fullName: 'Win a prize at https://evil.example <script>alert(1)</script>',
    roleTitle: 'Visit evil.example',
    companyName: 'Click https://evil.example/login',
    useCaseDescription: 'Reset your password at https://evil.example',
    notes: 'Call +1 555 0100 now',
  };

  /** An invite request in `state`, with the decision mail a decision writes (`message`, `payload`). */
  async function decided(database: Database, workEmail: string, state: ReviewState, message: MailMessage, payload: Record<string, unknown> | null) {
    const id = await storeSubmission(database.db, submissionBody({ ...hostile, workEmail }));
    let cohortId: string | null = null;
    if (state === 'accepted') {
      const [cohort] = await database.db.insert(cohorts).values({ name: 'Cohort 3', startsOn: '2027-01-15', capacity: 25, createdBy: 'ops' }).returning();
      cohortId = cohort!.id;
    }
    await database.db.update(submissions).set({ reviewState: state, cohortId, handledAt: sql`now()`, handledBy: 'ops' }).where(eq(submissions.id, id));
    const [row] = await database.db.insert(deliveries).values({ submissionId: id, channel: 'mail', message, payload }).returning();
    return row!;
  }

  it('writes each decision mail from its stored row as <delivery id>.eml, to the work email, never echoing the visitor\'s text', async () => {
    const database = await engine.open();
    const emlDir = await mkdtemp(join(tmpdir(), 'sonde-mail-'));
    cleanup.push(() => database.close());
    const rows = [
      await decided(database, 'ada@example.com', 'accepted', 'invite-accepted', { cohort: 'Cohort 3', startsOn: '2027-01-15' }),
      await decided(database, 'bob@example.com', 'waitlisted', 'invite-waitlisted', null),
      await decided(database, 'cy@example.com', 'declined', 'invite-declined', { reason: 'We start with <b>EU</b> teams' }),
      await decided(database, 'di@example.com', 'declined', 'invite-declined', { reason: null }),
    ];
    const settings: MailSettings = { smtpUrl: undefined, emlDir, from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined };
    const channel = mailChannel(settings, () => siteUrl, async () => ({}), async () => null);
    const sender = startOutbox({ db: database.db, channels: [channel], logger: createLogger('silent'), pollIntervalMs: 20 });
    cleanup.push(() => sender.stop());
    await until(async () => (await database.db.select().from(deliveries)).every((row) => row.deliveredAt !== null));
    expect((await readdir(emlDir)).sort()).toEqual(rows.map((row) => `${row.id}.eml`).sort());

    const mails = await Promise.all(rows.map(async (row) => ({ row, raw: await readFile(join(emlDir, `${row.id}.eml`), 'utf8') })));
    const parsed = await Promise.all(mails.map(async ({ row, raw }) => ({ row, raw, mail: await simpleParser(raw) })));
    const [accepted, waitlisted, declined, declinedWithout] = parsed;
    expect(accepted!.mail.to).toMatchObject({ text: 'ada@example.com' });
    expect(accepted!.mail.messageId).toBe(`<${accepted!.row.id}@sonde.dev>`);
    expect(accepted!.mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(accepted!.mail.subject).toBe("You're in: welcome to the Sonde beta");
    expect(accepted!.mail.text).toContain('Your cohort is Cohort 3; it starts on January 15, 2027.');
    expect(waitlisted!.mail.to).toMatchObject({ text: 'bob@example.com' });
    expect(waitlisted!.mail.text).toContain('The beta admits teams on a rolling basis.');
    expect(declined!.mail.text).toContain('Our reason: We start with <b>EU</b> teams');
    expect(String(declined!.mail.html)).toContain('Our reason: We start with &lt;b&gt;EU&lt;/b&gt; teams');
    expect(declinedWithout!.mail.text).not.toContain('reason');
    for (const { raw, mail } of parsed) {
      const everything = `${raw}\n${mail.subject}\n${mail.text}\n${String(mail.html)}`;
      for (const piece of ['evil.example', '<script>', 'alert(1)', 'prize', '555 0100', 'password']) expect(everything).not.toContain(piece);
    }
  });
});
