// @vitest-environment node
// The team's reminders (server/db/digest.ts, server/outbox/digest.ts, server/cli/digest.ts): the daily
// digest of what needs the team, once a day across instances and restarts, and the alert of a privacy
// request that passes its due date, once per request; both to every active member through the outbox,
// with request ids, types, due dates and the console's links, never a requester's personal data.
import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { readDigest, type Digest } from '../../server/db/digest.ts';
import { cohorts, deliveries, privacyRecords, submissions, teamAudit, teamDigests, teamMembers } from '../../server/db/schema.ts';
import { addMember, removeMember } from '../../server/db/team.ts';
import { readConfig } from '../../server/config.ts';
import {
  DEFAULT_TEAM_DIGEST_HOUR,
  DIGEST_COHORT_STARTS_WITHIN_DAYS,
  DIGEST_GIVEN_UP_WITHIN_MS,
  DIGEST_INVITE_WAITING_AFTER_MS,
  DIGEST_LIST_MAX,
  DIGEST_UNVERIFIED_AFTER_MS,
  DUE_SOON_DAYS,
  DUE_URGENT_DAYS,
} from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import { checkReminders, reminderMailers } from '../../server/outbox/digest.ts';
import { teamDigest } from '../../server/outbox/messages/teamDigest.ts';
import { teamCli } from '../support/cli.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';
import { storeSubmission, testEngines, withTestDatabase } from '../support/database.ts';
import { startInstances } from '../support/instances.ts';
import { freePort, smtpServer, until, type Received } from '../support/mailServer.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { enrollmentMailer } from '../support/teamClient.ts';

const DAY_MS = 86_400_000;
const ORIGIN = 'https://sonde.dev';
const mailers = reminderMailers('Sonde <hello@sonde.dev>', ORIGIN);

/** What a requester typed or is: none of it may be in a reminder. Distinctive, so a substring check finds any copy. */
const PERSONAL = {
  fullName: 'Zelda Quintessa-Marlowe',
  workEmail: 'zelda.quintessa@privatemail.example',
  companyName: 'Quintessa Holdings Ltd',
  details: 'My account number is QX-99123 please delete it',
};

/** Stores a privacy request (Delete, Access/Know) received `receivedAt`, due 45 days later, with the distinctive personal fields. */
async function privacyRequest(db: Database['db'], receivedAt: Date, types = 'Delete, Access/Know'): Promise<string> {
  const body = privacyRequestBody();
  body.data.fullName = PERSONAL.fullName;
  body.data.workEmail = PERSONAL.workEmail;
  body.data.companyName = PERSONAL.companyName;
  body.data.useCaseDescription = `CCPA Privacy Rights Request\nRequest types: ${types}\nDetails: ${PERSONAL.details}`;
  const id = await storeSubmission(db, body);
  await setDates(db, id, receivedAt, new Date(receivedAt.getTime() + 45 * DAY_MS));
  return id;
}

/** Moves a privacy request's receipt and due date (the request's and its §7101 record's): time passing, by back-dating. */
async function setDates(db: Database['db'], id: string, receivedAt: Date, dueAt: Date): Promise<void> {
  await db.update(submissions).set({ receivedAt, dueAt }).where(eq(submissions.id, id));
  await db.update(privacyRecords).set({ receivedAt, dueAt }).where(eq(privacyRecords.id, id));
}

async function inviteRequest(db: Database['db'], receivedAt: Date): Promise<string> {
  const id = await storeSubmission(db, submissionBody({ fullName: PERSONAL.fullName, workEmail: PERSONAL.workEmail, companyName: PERSONAL.companyName }));
  await db.update(submissions).set({ receivedAt }).where(eq(submissions.id, id));
  return id;
}

const member = (db: Database['db'], email: string) => addMember(db, { email, name: null, by: 'ops', at: new Date() }, enrollmentMailer(ORIGIN));

/** The rendered reminder mails in the outbox, per message. */
const reminderRows = (db: Database['db'], message: 'team-digest' | 'team-overdue') =>
  db
    .select({ memberId: deliveries.memberId, rendered: deliveries.rendered, email: teamMembers.email })
    .from(deliveries)
    .innerJoin(teamMembers, eq(teamMembers.id, deliveries.memberId))
    .where(eq(deliveries.message, message));

function expectNoPersonalData(text: string) {
  for (const value of [...Object.values(PERSONAL), PERSONAL.workEmail.split('@')[0]!, 'Zelda', 'Quintessa', 'QX-99123', 'privatemail']) {
    expect(text.toLowerCase()).not.toContain(value.toLowerCase());
  }
}

/** A moment on the day of `base` (UTC) at `hour`:`minute`. */
const atHour = (base: Date, hour: number, minute = 0) => new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate(), hour, minute));

describe.each(testEngines())('the team’s reminders on $name', (engine) => {
  let database: Database;
  withTestDatabase(engine, (opened) => (database = opened));
  const db = () => database.db;

  it('lists a privacy request back-dated to 41 days as due in under 5 days, with its id, types, due date and the console’s link', async () => {
    const now = new Date();
    const id = await privacyRequest(db(), new Date(now.getTime() - 41 * DAY_MS));
    const digest = await readDigest(db(), now);
    expect(digest.due).toEqual([expect.objectContaining({ id, band: 'under_5_days', daysLeft: 4, types: ['Access/Know', 'Delete'] })]);
    const cli = teamCli(() => database, { publicOrigin: ORIGIN });
    expect(await cli.run(['digest'], now)).toBe(0);
    const printed = cli.io.out.join('\n');
    expect(printed).toMatch(new RegExp(`Privacy requests due in under 5 days\\n\\n- ${id} \\(Access/Know, Delete\\), due \\d{4}-\\d{2}-\\d{2}, 4 days left: ${ORIGIN}/team/requests/${id}`));
    // received 41 days ago, its identity not confirmed: unverified after 10 days too
    expect(printed).toMatch(/^Subject: Sonde team digest, \d{4}-\d{2}-\d{2}: 1 due in under 5 days, 1 unverified$/m);
    expectNoPersonalData(printed);
  });

  it('puts each due date in the console’s band, at each band’s boundary', async () => {
    const now = new Date();
    const ids: Record<string, string> = {};
    const due = async (name: string, dueAt: Date) => {
      ids[name] = await privacyRequest(db(), new Date(dueAt.getTime() - 45 * DAY_MS));
      await setDates(db(), ids[name]!, new Date(dueAt.getTime() - 45 * DAY_MS), dueAt);
    };
    await due('dueNow', now); // its due moment has come: overdue, as the course's chart says
    await due('dueInOneMs', new Date(now.getTime() + 1));
    await due('urgentLast', new Date(now.getTime() + (DUE_URGENT_DAYS - 1) * DAY_MS));
    await due('soonFirst', new Date(now.getTime() + (DUE_URGENT_DAYS - 1) * DAY_MS + 1));
    await due('soonLast', new Date(now.getTime() + (DUE_SOON_DAYS - 1) * DAY_MS));
    await due('later', new Date(now.getTime() + (DUE_SOON_DAYS - 1) * DAY_MS + 1));
    const bands = Object.fromEntries((await readDigest(db(), now)).due.map((request) => [request.id, request.band]));
    expect(bands).toEqual({
      [ids.dueNow!]: 'overdue',
      [ids.dueInOneMs!]: 'under_5_days',
      [ids.urgentLast!]: 'under_5_days',
      [ids.soonFirst!]: 'under_10_days',
      [ids.soonLast!]: 'under_10_days',
    });
  });

  it('lists requests unverified for more than 10 days, invites waiting more than 7, deliveries given up within a day and cohorts starting within 7 days, each at its boundary', async () => {
    const now = new Date();
    const unverifiedNot = await privacyRequest(db(), new Date(now.getTime() - DIGEST_UNVERIFIED_AFTER_MS));
    const unverified = await privacyRequest(db(), new Date(now.getTime() - DIGEST_UNVERIFIED_AFTER_MS - 1));
    const verified = await privacyRequest(db(), new Date(now.getTime() - 20 * DAY_MS));
    await db().update(privacyRecords).set({ verifiedAt: now, verifiedBy: 'team' }).where(eq(privacyRecords.id, verified));
    await privacyRequest(db(), new Date(now.getTime() - 20 * DAY_MS), 'Opt-Out'); // needs no verification
    await inviteRequest(db(), new Date(now.getTime() - DIGEST_INVITE_WAITING_AFTER_MS));
    await inviteRequest(db(), new Date(now.getTime() - DIGEST_INVITE_WAITING_AFTER_MS - 1));
    await inviteRequest(db(), new Date(now.getTime() - DIGEST_INVITE_WAITING_AFTER_MS - 2));
    const decided = await inviteRequest(db(), new Date(now.getTime() - 30 * DAY_MS));
    await db().update(submissions).set({ reviewState: 'waitlisted' }).where(eq(submissions.id, decided));
    const [failedOld, failedNew] = await db()
      .insert(deliveries)
      .values([
        { submissionId: unverified, channel: 'mail', message: 'privacy-confirmation', failedAt: new Date(now.getTime() - DIGEST_GIVEN_UP_WITHIN_MS), lastError: 'SMTP 550 after RCPT TO' },
        { submissionId: unverified, channel: 'mail', message: 'privacy-confirmation', failedAt: new Date(now.getTime() - DIGEST_GIVEN_UP_WITHIN_MS + 1), lastError: 'SMTP 550 after RCPT TO' },
      ])
      .returning({ id: deliveries.id });
    const day = (offset: number) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
    const [, lastIn] = await db()
      .insert(cohorts)
      .values([
        { name: 'Yesterday', startsOn: day(-1), capacity: 5, createdBy: 'ops' },
        { name: 'Last in', startsOn: day(DIGEST_COHORT_STARTS_WITHIN_DAYS), capacity: 3, createdBy: 'ops' },
        { name: 'Too far', startsOn: day(DIGEST_COHORT_STARTS_WITHIN_DAYS + 1), capacity: 5, createdBy: 'ops' },
        { name: 'Today', startsOn: day(0), capacity: null, createdBy: 'ops' },
      ])
      .returning({ id: cohorts.id });
    await db().update(submissions).set({ reviewState: 'accepted', cohortId: lastIn!.id }).where(eq(submissions.id, decided));

    const digest: Digest = await readDigest(db(), now);
    expect(digest.unverified.map((request) => request.id)).toEqual([unverified]);
    expect(digest.unverified.map((request) => request.id)).not.toContain(unverifiedNot);
    expect(digest.invitesWaiting).toBe(2);
    expect(digest.givenUp.map((delivery) => delivery.id)).toEqual([failedNew!.id]);
    expect(digest.givenUp.map((delivery) => delivery.id)).not.toContain(failedOld!.id);
    expect(digest.cohorts).toEqual([
      { name: 'Today', startsOn: day(0), capacity: null, accepted: 0, free: null },
      { name: 'Last in', startsOn: day(DIGEST_COHORT_STARTS_WITHIN_DAYS), capacity: 3, accepted: 1, free: 2 },
    ]);
  });

  it('alerts every active member once when a privacy request becomes overdue, and not again the next day; the digest comes once a day from the hour on', async () => {
    const today = atHour(new Date(), 12);
    await member(db(), 'kim@sonde.dev');
    await member(db(), 'lee@sonde.dev');
    await member(db(), 'gone@sonde.dev');
    await removeMember(db(), 'gone@sonde.dev', today, 'ops');
    const id = await privacyRequest(db(), new Date(today.getTime() - 44 * DAY_MS - 1));
    // a minute before the due moment: due in under 5 days, no alert
    const dueAt = new Date(today.getTime() + DAY_MS - 1);
    const before = await checkReminders(db(), new Date(dueAt.getTime() - 60_000), 23, mailers);
    expect(before).toEqual({ alerted: [], digest: undefined });
    expect(await reminderRows(db(), 'team-overdue')).toEqual([]);

    const at = await checkReminders(db(), dueAt, 23, mailers);
    expect(at.alerted.map((request) => request.id)).toEqual([id]);
    const alerts = await reminderRows(db(), 'team-overdue');
    expect(alerts.map((row) => row.email).sort()).toEqual(['kim@sonde.dev', 'lee@sonde.dev']);
    const mail = await simpleParser(alerts[0]!.rendered!);
    expect(mail.subject).toBe(`Privacy request overdue: ${id}`);
    expect(mail.text).toContain(`${ORIGIN}/team/requests/${id}`);
    expectNoPersonalData(alerts[0]!.rendered!);

    // the next day, and a restart (a check is all a start does): still overdue, no second alert
    const nextDay = new Date(dueAt.getTime() + DAY_MS);
    expect((await checkReminders(db(), nextDay, 23, mailers)).alerted).toEqual([]);
    expect(await reminderRows(db(), 'team-overdue')).toHaveLength(2);

    // the digest: not before the hour; at it, once per active member; not again that day
    expect((await checkReminders(db(), atHour(nextDay, 22, 59), 23, mailers)).digest).toBeUndefined();
    expect((await checkReminders(db(), atHour(nextDay, 23, 0), 23, mailers)).digest).toMatchObject({ status: 'queued', mails: 2 });
    expect((await checkReminders(db(), atHour(nextDay, 23, 30), 23, mailers)).digest).toBeUndefined();
    const digests = await reminderRows(db(), 'team-digest');
    expect(digests.map((row) => row.email).sort()).toEqual(['kim@sonde.dev', 'lee@sonde.dev']);
    const digestMail = await simpleParser(digests[0]!.rendered!);
    expect(digestMail.subject).toMatch(/^Sonde team digest, \d{4}-\d{2}-\d{2}: 1 overdue, 1 unverified$/);
    expect(digestMail.text).toContain(`- ${id} (Access/Know, Delete), due ${dueAt.toISOString().slice(0, 10)}, overdue by 1 day: ${ORIGIN}/team/requests/${id}`);
    expectNoPersonalData(digests[0]!.rendered!);
    expectNoPersonalData(digestMail.html || '');
    expect(await db().select({ day: teamDigests.day, by: teamDigests.by, mails: teamDigests.mails }).from(teamDigests)).toEqual([
      { day: nextDay.toISOString().slice(0, 10), by: 'schedule', mails: 2 },
    ]);
  });

  it('sends no digest on a day when nothing needs the team, and checks that day once', async () => {
    const now = atHour(new Date(), 9);
    await member(db(), 'kim@sonde.dev');
    await privacyRequest(db(), now); // 45 days left: later
    expect((await checkReminders(db(), now, DEFAULT_TEAM_DIGEST_HOUR, mailers)).digest).toMatchObject({ status: 'empty' });
    expect(await reminderRows(db(), 'team-digest')).toEqual([]);
    expect(await db().select({ mails: teamDigests.mails }).from(teamDigests)).toEqual([{ mails: 0 }]);
  });

  it('digest prints “nothing needs the team” and changes nothing; --send queues it now to every active member, audited, and the schedule sends none that day', async () => {
    const now = atHour(new Date(), 6);
    const cli = teamCli(() => database, { publicOrigin: ORIGIN });
    expect(await cli.run(['digest'], now)).toBe(0);
    expect(cli.io.out).toEqual([`${now.toISOString().slice(0, 10)}: nothing needs the team`]);

    await member(db(), 'kim@sonde.dev');
    await member(db(), 'lee@sonde.dev');
    await inviteRequest(db(), new Date(now.getTime() - 8 * DAY_MS));
    expect(await cli.run(['digest'], now)).toBe(0);
    expect(cli.io.out.join('\n')).toContain('Invite requests waiting for a decision for more than 7 days\n\n1 (the queue');
    expect(await reminderRows(db(), 'team-digest')).toEqual([]);
    expect(await db().select().from(teamDigests)).toEqual([]);
    const audited = () => db().select({ action: teamAudit.action, detail: teamAudit.detail }).from(teamAudit).where(eq(teamAudit.action, 'digest sent'));
    expect(await audited()).toEqual([]);

    expect(await cli.run(['digest', '--send'], now)).toBe(0);
    expect(cli.io.out.join('\n')).toMatch(/digest queued to 2 team members/);
    expect((await reminderRows(db(), 'team-digest')).map((row) => row.email).sort()).toEqual(['kim@sonde.dev', 'lee@sonde.dev']);
    expect(await audited()).toEqual([{ action: 'digest sent', detail: 'cli' }]);
    expect(await db().select({ by: teamDigests.by, mails: teamDigests.mails }).from(teamDigests)).toEqual([{ by: 'cli', mails: 2 }]);
    // the hour comes: sent already today
    expect((await checkReminders(db(), atHour(now, 8), 8, mailers)).digest).toBeUndefined();
    expect(await reminderRows(db(), 'team-digest')).toHaveLength(2);
  });
});

describe('the digest’s lists', () => {
  it('list at most DIGEST_LIST_MAX entries a section, then say how many more; the counts stay whole', () => {
    const request = (i: number): Digest['due'][number] => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      types: ['Delete'],
      receivedAt: new Date('2026-10-01T00:00:00Z'),
      dueAt: new Date('2026-11-15T00:00:00Z'),
      daysLeft: -3,
      band: 'overdue',
    });
    const mailOf = (n: number) => {
      const due = Array.from({ length: n }, (_, i) => request(i));
      return teamDigest({ day: '2026-11-18', at: new Date('2026-11-18T08:00:00Z'), due, unverified: [], invitesWaiting: 0, givenUp: [], cohorts: [] }, ORIGIN);
    };
    const full = mailOf(DIGEST_LIST_MAX);
    expect(full.text.match(/\/team\/requests\//g)).toHaveLength(DIGEST_LIST_MAX);
    expect(full.text).not.toMatch(/more: the console/);
    const over = mailOf(DIGEST_LIST_MAX + 1);
    expect(over.subject).toBe(`Sonde team digest, 2026-11-18: ${DIGEST_LIST_MAX + 1} overdue`);
    expect(over.text.match(/\/team\/requests\//g)).toHaveLength(DIGEST_LIST_MAX);
    expect(over.text).toContain(`- and 1 more: the console's queue lists them all, ${ORIGIN}/team`);
    expect(over.html).toContain(`<li>and 1 more: the console&#39;s queue lists them all, ${ORIGIN}/team</li>`);
  });
});

describe('SONDE_TEAM_DIGEST_HOUR', () => {
  it('is 8 by default and takes 0 to 23; anything else stops the server naming the variable', () => {
    expect(readConfig({}).teamDigestHour).toBe(8);
    expect(readConfig({ SONDE_TEAM_DIGEST_HOUR: '0' }).teamDigestHour).toBe(0);
    expect(readConfig({ SONDE_TEAM_DIGEST_HOUR: '23' }).teamDigestHour).toBe(23);
    for (const value of ['24', '-1', '8.5', 'eight', '1e1', ' ']) {
      expect(() => readConfig({ SONDE_TEAM_DIGEST_HOUR: value }), value).toThrow(/^SONDE_TEAM_DIGEST_HOUR must be an hour of the day in UTC, 0 to 23/);
    }
  });
});

describe.each(testEngines())('the reminders of a running server on $name, over SMTP', (engine) => {
  const cleanup = cleanupAfterEach();
  let distDir: string;
  beforeAll(async () => {
    distDir = await writeStandInSite();
  });

  it('mails each active member the overdue alert and the digest at start, by SMTP, with no requester’s personal data', async () => {
    const database = await engine.open();
    cleanup.push(() => database.close());
    await member(database.db, 'kim@sonde.dev');
    await member(database.db, 'lee@sonde.dev');
    await database.db.update(deliveries).set({ deliveredAt: new Date(), rendered: null }); // the enrollment mails: sent before
    const now = new Date();
    const overdue = await privacyRequest(database.db, new Date(now.getTime() - 46 * DAY_MS));
    const stored = await database.db.select().from(submissions).where(eq(submissions.id, overdue));

    const received: Received[] = [];
    const port = await freePort();
    const smtp = await smtpServer(port, { onReceived: (message) => received.push(message) });
    cleanup.push(() => smtp.close());
    const config = testConfig(distDir, { publicOrigin: ORIGIN, teamDigestHour: 0, mail: { ...testConfig(distDir).mail, smtpUrl: `smtp://127.0.0.1:${port}` } });
    const server = await startTestServer(config, createLogger('silent'), { database, reminders: {} });
    cleanup.push(() => server.stop());
    await until(() => received.length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more comes
    const day = (await database.db.select({ day: teamDigests.day }).from(teamDigests))[0]?.day;
    expect(day).toBe(now.toISOString().slice(0, 10));
    expect(received.map((message) => `${message.to.join()} ${message.mail.subject}`).sort()).toEqual([
      `kim@sonde.dev Privacy request overdue: ${overdue}`,
      `kim@sonde.dev Sonde team digest, ${day}: 1 overdue, 1 unverified`,
      `lee@sonde.dev Privacy request overdue: ${overdue}`,
      `lee@sonde.dev Sonde team digest, ${day}: 1 overdue, 1 unverified`,
    ]);
    for (const message of received) {
      const raw = message.raw.toString('utf8');
      expect(message.mail.text).toContain(`${ORIGIN}/team/requests/${overdue}`);
      // none of the stored request's personal fields, in either part or any header
      const { fullName, workEmail, companyName, useCaseDescription } = stored[0]!.body.data;
      for (const value of [fullName, workEmail, stored[0]!.email, companyName, useCaseDescription, PERSONAL.details]) {
        expect(raw.toLowerCase()).not.toContain(value.toLowerCase());
        expect(`${message.mail.text}\n${message.mail.html || ''}`.toLowerCase()).not.toContain(value.toLowerCase());
      }
      expectNoPersonalData(`${raw}\n${message.mail.text}\n${message.mail.html || ''}`);
    }
  });
});

describe.each(testEngines())('the reminders’ timer on $name', (engine) => {
  const cleanup = cleanupAfterEach();

  it('checks again after each interval: a request that passes its due date while the server runs is alerted at the next check, once', async () => {
    const database = await engine.open();
    cleanup.push(() => database.close());
    await member(database.db, 'kim@sonde.dev');
    const now = new Date();
    const id = await privacyRequest(database.db, now); // due in 45 days
    const config = testConfig(await writeStandInSite(), { publicOrigin: ORIGIN, teamDigestHour: 23 });
    const server = await startTestServer(config, createLogger('silent'), { database, reminders: { now: () => atHour(now, 12), intervalMs: 100 } });
    cleanup.push(() => server.stop());
    await new Promise((resolve) => setTimeout(resolve, 300)); // several checks: nothing overdue, before the hour
    expect(await reminderRows(database.db, 'team-overdue')).toEqual([]);
    await setDates(database.db, id, new Date(now.getTime() - 46 * DAY_MS), new Date(now.getTime() - DAY_MS));
    await until(async () => (await reminderRows(database.db, 'team-overdue')).length > 0, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // several more checks
    expect((await reminderRows(database.db, 'team-overdue')).map((row) => row.email)).toEqual(['kim@sonde.dev']);
    expect(await reminderRows(database.db, 'team-digest')).toEqual([]);
  });
});

describe.runIf(process.env.DATABASE_URL)('two server processes on one PostgreSQL', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('send one digest a day and one alert per overdue request between them, at start and after a restart', async () => {
    const instances = await startInstances(2, { SONDE_TEAM_DIGEST_HOUR: '0', SONDE_PUBLIC_ORIGIN: ORIGIN });
    stop = instances.stop;
    const db = instances.database.db;
    // both checked at start, with nothing to say: today is done, with no mail
    await until(async () => (await db.select().from(teamDigests)).length === 1);
    await member(db, 'kim@sonde.dev');
    await member(db, 'lee@sonde.dev');
    const overdue = await privacyRequest(db, new Date(Date.now() - 46 * DAY_MS));
    await inviteRequest(db, new Date(Date.now() - 8 * DAY_MS));
    // a new day: the row of today becomes yesterday's
    await db.update(teamDigests).set({ day: sql`${teamDigests.day} - 1` });

    // the two instances restart at once (kill -9, then both started together): each checks at start
    for (const server of instances.servers) server.child.kill('SIGKILL');
    await Promise.all(instances.servers.map((server) => server.exited));
    await Promise.all([instances.start(), instances.start()]);
    await until(async () => (await db.select().from(deliveries).where(sql`${deliveries.message} in ('team-digest', 'team-overdue') and ${deliveries.deliveredAt} is not null`)).length >= 4);
    // a third start the same day: nothing more
    await instances.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rows = await db
      .select({ message: deliveries.message, email: teamMembers.email })
      .from(deliveries)
      .innerJoin(teamMembers, eq(teamMembers.id, deliveries.memberId))
      .where(sql`${deliveries.message} in ('team-digest', 'team-overdue')`);
    expect(rows.map((row) => `${row.message} ${row.email}`).sort()).toEqual(['team-digest kim@sonde.dev', 'team-digest lee@sonde.dev', 'team-overdue kim@sonde.dev', 'team-overdue lee@sonde.dev']);
    const days = await db.select({ day: teamDigests.day, mails: teamDigests.mails }).from(teamDigests).orderBy(teamDigests.day);
    expect(days.map((row) => row.mails)).toEqual([0, 2]);
    expect(days[1]!.day).toBe(new Date().toISOString().slice(0, 10));
    // the mail itself, written by one of them into the shared mail directory
    const alertFile = (await db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.message, 'team-overdue')))[0]!.id;
    const raw = await readFile(`${instances.mailDir}/${alertFile}.eml`, 'utf8');
    const mail = await simpleParser(raw);
    expect(mail.text).toContain(`${ORIGIN}/team/requests/${overdue}`);
    expectNoPersonalData(`${raw}\n${mail.text}\n${mail.html || ''}`);
  }, 120_000);
});
