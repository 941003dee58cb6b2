// @vitest-environment node
// Model-based: every path of the invite review's chart (machines/inviteReviewMachine.ts), taken through
// the team's command line against the real decision statements, then checked where a team member, an
// applicant and the API's onboarding would see it: the stored state (`show`, `list`), the timeline, the
// mail as the local SMTP test server received it, and the signed event as a local receiver got it,
// verified with the standardwebhooks library's own verifier. Every transition of the chart is walked.
import { eq } from 'drizzle-orm';
import { initialTransition, transition, type AnyEventObject } from 'xstate';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteReviewMachine, type InviteReviewEvent } from '#machines/inviteReviewMachine';
import type { Database } from '../../server/db/database.ts';
import { deliveries } from '../../server/db/schema.ts';
import { createLogger } from '../../server/logger.ts';
import { eventChannel } from '../../server/outbox/events.ts';
import { mailChannel } from '../../server/outbox/mail.ts';
import { startOutbox, type Outbox } from '../../server/outbox/sender.ts';
import { chartPaths, transitionsMissed, transitionsTaken } from '../support/chartWalk.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { eventReceiver, secretOf, signed } from '../support/eventReceiver.ts';
import { freePort, smtpServer } from '../support/mailServer.ts';
import { submissionBody } from '../support/submissionBody.ts';

const COHORT = { name: 'Cohort 1', startsOn: '2027-01-15' };
const REASON = 'We are focusing on teams with production workloads for now.';

/** One sample of each decision, with the facts the chart's guard reads (a cohort with room). */
const EVENTS: InviteReviewEvent[] = [
  { type: 'review.accept', cohort: { ...COHORT, capacity: null, accepted: 0 } },
  { type: 'review.waitlist' },
  { type: 'review.decline', reason: REASON },
  { type: 'review.spam' },
  { type: 'review.reopen' },
];

/** The command a team member types for an event of the chart. */
function commandOf(event: AnyEventObject, id: string): string[] {
  switch (event.type) {
    case 'review.accept':
      return ['accept', id, '--cohort', COHORT.name];
    case 'review.decline':
      return ['decline', id, '--reason', REASON];
    default:
      return [event.type.slice('review.'.length), id];
  }
}

/** What each decision leaves: its timeline action, the applicant's mail (its facts, and what it says), the signed event. */
const EXPECTED: Record<string, { action: string; mail?: { message: string; payload: unknown; subject: string; says: string }; event?: string }> = {
  'review.accept': {
    action: 'accepted',
    mail: { message: 'invite-accepted', payload: { cohort: COHORT.name, startsOn: COHORT.startsOn }, subject: "You're in: welcome to the Sonde beta", says: COHORT.name },
    event: 'invite.accepted',
  },
  'review.waitlist': {
    action: 'waitlisted',
    mail: { message: 'invite-waitlisted', payload: null, subject: 'Your Sonde invite request: on the waitlist', says: 'rolling basis' },
    event: 'invite.waitlisted',
  },
  'review.decline': { action: 'declined', mail: { message: 'invite-declined', payload: { reason: REASON }, subject: 'Your Sonde invite request', says: REASON }, event: 'invite.declined' },
  'review.spam': { action: 'spam' },
  'review.reopen': { action: 'reopened' },
};

// no context tells the chart's transitions apart: a state is told apart by the state before and the event
const paths = chartPaths(inviteReviewMachine, {
  inputs: [undefined],
  events: EVENTS,
  stateOf: (snapshot, event, previous) => [previous?.value ?? null, event?.type ?? null, snapshot.value],
}).filter((path) => path.events.length > 0);

describe.each(testEngines())('the invite review chart, walked through the command line on $name', (engine) => {
  let database: Database;
  const { io, run } = teamCli(() => database, { events: true });
  const walked = new Set<string>();
  let sent = 0;
  const secret = secretOf();
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let receiver: Awaited<ReturnType<typeof eventReceiver>>;
  let outbox: Outbox;

  beforeAll(async () => {
    database = await engine.open();
    expect(await run(['cohort', 'add', COHORT.name, '--starts', COHORT.startsOn])).toBe(0);
    const port = await freePort();
    smtp = await smtpServer(port);
    receiver = await eventReceiver();
    const mail = { smtpUrl: `smtp://127.0.0.1:${port}`, emlDir: '/nonexistent', from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined };
    outbox = startOutbox({
      db: database.db,
      channels: [mailChannel(mail, () => 'https://sonde.dev', async () => ({}), async () => null), eventChannel({ url: receiver.url, secret })],
      logger: createLogger('silent'),
      pollIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await outbox?.stop();
    await smtp?.close();
    await receiver?.close();
    await database?.close();
  });

  /** What `show` prints for the request, parsed. */
  const show = async (id: string) => {
    expect(await run(['show', id])).toBe(0);
    return JSON.parse(io.out[0]!) as { state: string; cohort?: string; status: string; timeline: Array<Record<string, string>> };
  };
  const listed = async (argv: string[]) => {
    expect(await run(['list', '--json', ...argv])).toBe(0);
    return (JSON.parse(io.out[0]!) as Array<{ id: string }>).map((r) => r.id);
  };

  it.each(paths.map((path) => [path.title, path] as const))('%s', async (_title, path) => {
    sent += 1;
    const email = `applicant-${sent}@example.com`;
    const id = await storeSubmission(database.db, submissionBody({ workEmail: email, companyName: `Company ${sent}` }), { mail: { requester: true, team: false } });
    let [snapshot] = initialTransition(inviteReviewMachine);
    const states: string[] = [];
    for (const event of path.events) {
      transitionsTaken(inviteReviewMachine, snapshot, event).forEach((key) => walked.add(key));
      [snapshot] = transition(inviteReviewMachine, snapshot, event);
      expect(await run(commandOf(event, id)), io.err.join('\n')).toBe(0);
      await outbox.runOnce(); // the server's sender, between two decisions
      const next = String(snapshot.value);
      states.push(next);
      const shown = await show(id);
      expect(shown.state).toBe(next);
      expect(shown.status).toBe(next === 'received' ? 'open' : 'done');
      expect(shown.cohort).toBe(next === 'accepted' ? COHORT.name : undefined);
      // spam is hidden from the queue, and listed only when asked for
      expect(await listed([])).toEqual(next === 'spam' ? expect.not.arrayContaining([id]) : expect.arrayContaining([id]));
      expect(await listed(['--state', next])).toContain(id);
    }

    const expected = path.events.map((event) => EXPECTED[event.type]!);
    // the timeline: each decision, with who and from which state to which
    const decisions = (await show(id)).timeline.filter((entry) => !['received', 'mail', 'signed event', 'announcement'].includes(entry.event ?? ''));
    let from = 'received';
    expect(decisions).toEqual(
      path.events.map((event, index) => {
        const to = states[index]!;
        const entry = {
          event: EXPECTED[event.type]!.action,
          at: expect.any(String),
          by: 'kim',
          from,
          to,
          ...(event.type === 'review.accept' ? { cohort: COHORT.name } : {}),
          ...(event.type === 'review.decline' ? { reason: REASON } : {}),
        };
        from = to;
        return entry;
      }),
    );
    // the outbox: the applicant's mail for each decision that mails (after the acknowledgment), and the signed events
    const rows = await database.db.select().from(deliveries).where(eq(deliveries.submissionId, id)).orderBy(deliveries.createdAt);
    expect(rows.filter((row) => row.channel === 'mail' && row.message !== 'invite-acknowledgment').map((row) => ({ message: row.message, payload: row.payload }))).toEqual(
      expected.flatMap((e) => (e.mail ? [{ message: e.mail.message, payload: e.mail.payload }] : [])),
    );
    // delivered: the mail as the SMTP server received it, the events as the receiver got them, each verified
    const mails = smtp.received.filter((message) => message.to.includes(email) && message.mail.subject !== 'We received your request for a Sonde invite');
    expect(mails.map((message) => message.mail.subject)).toEqual(expected.flatMap((e) => (e.mail ? [e.mail.subject] : [])));
    mails.forEach((message, index) => expect(message.mail.text).toContain(expected.filter((e) => e.mail)[index]!.mail!.says));
    const verifier = new Webhook(secret);
    const got = receiver.received
      .map((request) => verifier.verify(request.body, signed(request.headers)) as { type: string; data: { requestId: string } })
      .filter((envelope) => envelope.data.requestId === id);
    expect(got.map((envelope) => envelope.type)).toEqual(expected.flatMap((e) => (e.event ? [e.event] : [])));
    const events = rows.filter((row) => row.channel === 'event');
    expect(events.map((row) => row.event)).toEqual(expected.flatMap((e) => (e.event ? [e.event] : [])));
    for (const row of events) {
      expect(row.payload).toEqual({
        requestId: id,
        workEmail: email,
        company: `Company ${sent}`,
        decidedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        ...(row.event === 'invite.accepted' ? { cohort: COHORT } : {}),
      });
    }
  });

  it('walked every transition of the chart', () => {
    expect(transitionsMissed(inviteReviewMachine, walked)).toEqual({ all: 8, missed: [] });
  });
});
