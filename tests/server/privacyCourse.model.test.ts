// @vitest-environment node
// The privacy request's course (machines/privacyCourseMachine.ts) walked against the real server: paths
// generated from the chart, each taken on a request stored by the real submission function, its steps
// through the team's command line in-process (verify, extend, respond) or the verification link's own
// function (confirm), the due date passing on the injected clock. After each step the stored record of
// 11 CCR §7101, `show` and the mail in the outbox say what the chart says; at each state reached, every
// step the chart refuses is tried too, and refused with its line, changing nothing. Every transition of
// the chart is walked.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialTransition, transition, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate';
import { needsVerification, privacyCourseMachine, type PrivacyCourseEvent, type PrivacyCourseInput } from '#machines/privacyCourseMachine';
import type { SubmissionBody } from '#shared/submission';
import type { Database } from '../../server/db/database.ts';
import { courseRecordOf, privacyCourseOf, refusalOf, unfoundedResponse, type RefusalRule } from '../../server/db/privacyCourse.ts';
import { deliveries, privacyRecords, privacyVerifications } from '../../server/db/schema.ts';
import { confirmVerification, issueVerificationToken } from '../../server/db/verificationLinks.ts';
import { chartPaths, initialTransitionsTaken, transitionsMissed, transitionsTaken } from '../support/chartWalk.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody } from '../support/submissionBody.ts';

type Course = SnapshotFrom<typeof privacyCourseMachine>;

const HOUR_MS = 3_600_000;
const SAMPLE_AT = '2026-01-01T00:00:00.000Z';

/** The two kinds of request: one that waits for its requester's confirmation (§7060), and an opt-out, which needs none. */
const INPUTS: PrivacyCourseInput[] = [
  { requestTypes: ['Access/Know', 'Delete'], receivedAt: SAMPLE_AT, dueAt: SAMPLE_AT },
  { requestTypes: ['Opt-Out'], receivedAt: SAMPLE_AT, dueAt: SAMPLE_AT },
];

/** One sample of each step the team, the requester's link and the clock can take; `at` is set when walked. */
const STEPS: PrivacyCourseEvent[] = [
  { type: 'verify', by: 'link', at: SAMPLE_AT },
  { type: 'verify', by: 'team', at: SAMPLE_AT },
  { type: 'extend', reason: 'Our backups take two weeks to search.', at: SAMPLE_AT },
  { type: 'clock.due' },
  { type: 'respond', outcome: 'complied', attachSubject: false, by: 'kim', at: SAMPLE_AT },
  { type: 'respond', outcome: 'complied', attachSubject: true, by: 'kim', at: SAMPLE_AT },
  { type: 'respond', outcome: 'denied', reason: 'Not confirmed by the requester (§7062).', attachSubject: false, by: 'kim', at: SAMPLE_AT },
  { type: 'respond', outcome: 'partly', reason: 'Invoices are kept 7 years (tax law).', attachSubject: false, by: 'kim', at: SAMPLE_AT },
];

/** The refused steps tried at each state: the samples, and a denial without its basis. */
const PROBES: PrivacyCourseEvent[] = [...STEPS.filter((event) => event.type !== 'clock.due'), { type: 'respond', outcome: 'denied', attachSubject: false, by: 'kim', at: SAMPLE_AT }];

/** What tells two states apart: the chart's state, whether it was extended, how it was verified, the outcome. */
const stateOf = (course: AnyMachineSnapshot) => [course.value, course.context.extendedAt !== null, course.context.verifiedBy, course.context.outcome];

/** The identity `list` and `show` print: the chart's, and once answered, as the record left it. */
function identityShown(course: Course): string {
  if (course.matches({ received: { identity: 'notNeeded' } })) return 'not needed';
  if (course.matches({ received: { identity: 'unverified' } })) return 'unverified';
  if (course.context.verifiedAt) return 'verified';
  return needsVerification(course.context.requestTypes) ? 'unverified' : 'not needed';
}

type StoredRecord = typeof privacyRecords.$inferSelect;

/** The line the command line has always printed for each refusal, word for word. */
function lineOf(id: string, event: PrivacyCourseEvent, rule: RefusalRule, r: StoredRecord): string {
  const answeredOn = `request ${id} was already answered on ${r.respondedAt?.toISOString()} (${r.outcome ?? 'no outcome'})`;
  const lines: Partial<Record<string, string>> = {
    'respond noBasis': `error: --reason is required when the outcome is ${event.type === 'respond' ? event.outcome : ''}: the requester is told why (11 CCR §7022, §7024)`,
    'respond answered': answeredOn,
    'respond dataOfUnverified': `request ${id} is not verified: its requester's data is not sent before they confirm it is them (11 CCR §7060)`,
    'respond notVerified': `request ${id} is not verified: a request to know, delete, correct or port is not carried out before its requester confirms it is them (11 CCR §7060). Record how they confirmed with verify ${id}, or answer --outcome denied (or partly) with the reason`,
    'verify answered': `${answeredOn}: there is nothing left to verify it for`,
    'verify pastDue': `request ${id} was due on ${r.dueAt.toISOString().slice(0, 10)}: verify records an identity check before the due date; answer it with respond`,
    'verify verifiedAlready': `request ${id} was already verified on ${r.verifiedAt?.toISOString()}`,
    'extend extendedAlready': `request ${id} was already extended on ${r.extendedAt?.toISOString()}: the regulations allow one extension`,
    'extend answered': `request ${id} was already answered`,
    'extend pastDue': `request ${id} was due on ${r.dueAt.toISOString().slice(0, 10)}: an extension must be noticed before then`,
  };
  return lines[`${event.type} ${rule}`] ?? `(no line for ${event.type} ${rule})`;
}

const withAt = (event: PrivacyCourseEvent, now: Date): PrivacyCourseEvent => (event.type === 'clock.due' ? event : { ...event, at: now.toISOString() });

/** The command line's arguments for a team step. */
function argvOf(id: string, event: PrivacyCourseEvent): string[] {
  if (event.type === 'verify') return ['verify', id];
  if (event.type === 'extend') return ['extend', id, '--reason', event.reason];
  if (event.type === 'respond') return ['respond', id, '--outcome', event.outcome, ...(event.reason ? ['--reason', event.reason] : []), ...(event.attachSubject ? ['--attach-subject'] : [])];
  throw new Error(`${event.type} is not a command`);
}

const paths = chartPaths(privacyCourseMachine, { inputs: INPUTS, events: STEPS, stateOf });

describe.each(testEngines())('the privacy course, walked on $name', (engine) => {
  let database: Database;
  const { io, run } = teamCli(() => database);
  const walked = new Set<string>();
  const probed = new Set<string>();
  const refusalsSeen = new Set<string>();
  let requests = 0;

  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await database.close();
  });

  const storedRecord = async (id: string) => (await database.db.select().from(privacyRecords).where(eq(privacyRecords.id, id)))[0]!;
  const mails = async (id: string) =>
    (await database.db.select().from(deliveries).where(eq(deliveries.submissionId, id))).map((d) => `${d.message}${d.attachSubject ? ' +subject' : ''}`).sort();
  const links = async (id: string) => (await database.db.select().from(privacyVerifications).where(eq(privacyVerifications.requestId, id))).map((v) => v.usedAt !== null);
  const everything = async (id: string) => ({ record: await storedRecord(id), mails: await mails(id), links: await links(id) });

  /** The stored request says what the chart says: the record, its state at `now`, `show`, the mail, the links. */
  async function expectStoredAs(id: string, course: Course, now: Date, expectedMails: string[]) {
    const stored = await storedRecord(id);
    expect(courseRecordOf(stored)).toEqual(course.context);
    expect(privacyCourseOf(stored, now).value).toEqual(course.value);

    expect(await run(['show', id], now)).toBe(0);
    const shown = JSON.parse(io.out[0]!) as { status: string; verification: string; outcome?: string; daysLeft?: number; history: Array<{ event: string; at: string }> };
    const { context } = course;
    const steps = [
      ['verified', context.verifiedAt],
      ['extended', context.extendedAt],
      ['responded', context.respondedAt],
    ].filter((step): step is [string, string] => step[1] !== null);
    expect(shown.history.map((h) => h.event)).toEqual(['received', ...steps.sort((a, b) => a[1].localeCompare(b[1])).map(([event]) => event)]);
    expect(shown.verification).toBe(identityShown(course));
    expect(shown.outcome).toBe(context.outcome ?? undefined);
    expect(shown.status).toBe(course.matches('responded') ? 'done' : 'open');
    if (!course.matches('responded')) expect(shown.daysLeft! <= 0).toBe(course.matches({ received: { deadline: 'overdue' } }));

    expect(await mails(id)).toEqual([...expectedMails].sort());
    // a link is spent once the request is verified, and gone once it is answered
    const stillThere = await links(id);
    if (course.matches('responded')) expect(stillThere).toEqual([]);
    else expect(stillThere.every((used) => used === (context.verifiedAt !== null))).toBe(true);
  }

  /** Takes a step through the real function: the team's command line, or the link's confirmation. */
  async function take(id: string, event: PrivacyCourseEvent, token: string, now: Date): Promise<{ code: number; line: string | undefined }> {
    if (event.type === 'verify' && event.by === 'link') {
      const answer = await confirmVerification(database.db, token, now);
      return { code: answer?.status === 'confirmed' ? 0 : 1, line: answer?.status ?? 'null' };
    }
    const code = await run(argvOf(id, event), now);
    return { code, line: io.err[0] ?? io.out[0] };
  }

  /** Every step the chart refuses from `course` is refused by the server too, with its line, changing nothing. */
  async function probeRefusals(label: string, id: string, course: Course, token: string, now: Date) {
    const key = JSON.stringify([label, ...stateOf(course)]);
    if (probed.has(key)) return;
    probed.add(key);
    for (const probe of PROBES) {
      const event = withAt(probe, now);
      if (course.can(event)) continue;
      const before = await everything(id);
      const stored = await storedRecord(id);
      const refusal = (event.type === 'respond' ? unfoundedResponse(event) : undefined) ?? refusalOf(id, privacyCourseOf(stored, now), event);
      expect(refusal, `${key}: ${JSON.stringify(event)}`).toBeDefined();
      const { rule, message } = refusal!;
      refusalsSeen.add(`${event.type} ${'by' in event && event.type === 'verify' ? `by ${event.by} ` : ''}${rule}`);
      const { code, line } = await take(id, event, token, now);
      if (event.type === 'verify' && event.by === 'link') {
        expect(line, key).toBe(rule === 'verifiedAlready' ? 'verified' : 'null');
      } else {
        expect(message).toBe(lineOf(id, event, rule, stored));
        expect({ code, line }, `${key}: ${argvOf(id, event).join(' ')}`).toEqual({
          code: rule === 'verifiedAlready' ? 0 : rule === 'noBasis' ? 2 : 1,
          line: message,
        });
      }
      expect(await everything(id), `${key}: ${JSON.stringify(event)} changed nothing`).toEqual(before);
    }
  }

  for (const path of paths) {
    const label = (path.input as PrivacyCourseInput).requestTypes.join(', ');
    it(`${label}: ${path.title}`, async () => {
      requests += 1;
      const body: SubmissionBody = privacyRequestBody();
      body.data.workEmail = `course-${requests}@example.com`;
      body.data.useCaseDescription = `CCPA Privacy Rights Request\nRequest types: ${label}\nDetails: None provided`;
      const id = await storeSubmission(database.db, body, { mail: { requester: true, team: false } });
      const received = await storedRecord(id);
      let now = new Date(received.receivedAt.getTime() + HOUR_MS);
      // what the confirmation of receipt carries: the link, issued as the mail channel issues it
      const token = (await issueVerificationToken(database.db, id, now))!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const input: PrivacyCourseInput = { requestTypes: received.requestTypes, receivedAt: received.receivedAt.toISOString(), dueAt: received.dueAt.toISOString() };
      let [course] = initialTransition(privacyCourseMachine, input);
      const taken = initialTransitionsTaken(privacyCourseMachine, input);
      const expectedMails = ['privacy-confirmation'];
      await expectStoredAs(id, course, now, expectedMails);

      for (const sample of path.events) {
        await probeRefusals(label, id, course, token, now);
        // the clock reaches the due date itself; any other step comes an hour after the last
        now = sample.type === 'clock.due' ? new Date(course.context.dueAt) : new Date(now.getTime() + HOUR_MS);
        const event = withAt(sample, now);
        expect(course.can(event)).toBe(true);
        taken.push(...transitionsTaken(privacyCourseMachine, course, event));
        if (event.type !== 'clock.due') expect(await take(id, event, token, now), JSON.stringify(event)).toMatchObject({ code: 0 });
        if (event.type === 'extend') expectedMails.push('privacy-extension');
        if (event.type === 'respond') expectedMails.push(`privacy-outcome${event.attachSubject ? ' +subject' : ''}`);
        [course] = transition(privacyCourseMachine, course, event);
        await expectStoredAs(id, course, now, expectedMails);
      }
      await probeRefusals(label, id, course, token, now);
      taken.forEach((key) => walked.add(key));
    });
  }

  it('walked every transition of the chart, and tried each refusal the team meets', () => {
    const { all, missed } = transitionsMissed(privacyCourseMachine, walked);
    console.info(`[model coverage] privacyCourse on ${engine.name}: ${all - missed.length}/${all} transitions (${((100 * (all - missed.length)) / all).toFixed(0)}%), ${paths.length} paths, ${probed.size} states probed`);
    expect(missed).toEqual([]);
    // respond to an unverified request to know; extend twice; extend or verify after the due date; anything after the response
    for (const seen of [
      'respond notVerified',
      'respond dataOfUnverified',
      'respond noBasis',
      'extend extendedAlready',
      'extend pastDue',
      'verify by team pastDue',
      'verify by link pastDue',
      'verify by team verifiedAlready',
      'verify by link verifiedAlready',
      'respond answered',
      'extend answered',
      'verify by team answered',
      'verify by link answered',
    ] satisfies Array<`${string} ${RefusalRule}`>) {
      expect(refusalsSeen, seen).toContain(seen);
    }
  });
});
