// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { inviteReviewMachine, reviewAt, REVIEW_STATES, type InviteReviewEvent } from '#machines/inviteReviewMachine';
import { privacyCourseAt, type PrivacyCourseEvent } from '#machines/privacyCourseMachine';
import { chartsAllow, courseRecordOf, type DecisionDraft } from '#machines/teamDecisions';
import { courseRecordOf as storedRecordOf, privacyCourseOf } from '../../server/db/privacyCourse.ts';
import { reviewRefusal } from '../../server/db/decisions.ts';
import { summary, type PrivacyRecord, type Row } from '../../server/db/summary.ts';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-26T12:00:00.000Z');
const at = (days: number) => new Date(NOW.getTime() + days * DAY_MS);

/** A stored privacy request and its §7101 record, as the server reads them. */
function stored(options: { types: string[]; verified: boolean; extended: boolean; responded: boolean; receivedDaysAgo: number }) {
  const receivedAt = at(-options.receivedDaysAgo);
  const dueAt = new Date(receivedAt.getTime() + (options.extended ? 90 : 45) * DAY_MS);
  const record = {
    id: '00000000-0000-4000-8000-000000000001',
    receivedAt,
    requestTypes: options.types,
    method: 'web form',
    dueAt,
    confirmationSentAt: receivedAt,
    verifiedAt: options.verified ? at(-options.receivedDaysAgo + 1) : null,
    verifiedBy: options.verified ? 'link' : null,
    extendedAt: options.extended ? at(-1) : null,
    extensionReason: options.extended ? 'More time' : null,
    respondedAt: options.responded ? at(-1) : null,
    outcome: options.responded ? 'complied' : null,
    outcomeReason: null,
    respondedBy: options.responded ? 'Ada' : null,
  } as unknown as PrivacyRecord;
  const row = {
    id: record.id,
    kind: 'privacy',
    receivedAt,
    email: 'k@example.com',
    body: { event: 'invite_request', data: { fullName: 'K', companyName: 'Orbit' } },
    reviewState: null,
    dueAt,
    handledAt: options.responded ? at(-1) : null,
    handledBy: options.responded ? 'Ada' : null,
    handledNote: null,
  } as unknown as Row;
  return { record, row };
}

const COMBINATIONS = [['Access/Know', 'Delete'], ['Opt-Out']].flatMap((types) =>
  [false, true].flatMap((verified) =>
    [false, true].flatMap((extended) => [false, true].flatMap((responded) => [10, 50, 100].map((receivedDaysAgo) => ({ types, verified, extended, responded, receivedDaysAgo })))),
  ),
);

describe("the console asks the decision charts as the server does", () => {
  it.each(COMBINATIONS.map((options) => [JSON.stringify(options), options] as const))('the course of a stored record %s is the same state', (_name, options) => {
    const { record } = stored(options);
    expect(privacyCourseAt(storedRecordOf(record), NOW).value).toEqual(privacyCourseOf(record, NOW).value);
  });

  const EVENTS: PrivacyCourseEvent[] = [
    { type: 'verify', by: 'team', at: NOW.toISOString() },
    { type: 'extend', reason: 'More time', at: NOW.toISOString() },
    { type: 'respond', outcome: 'complied', attachSubject: true, by: 'team', at: NOW.toISOString() },
    { type: 'respond', outcome: 'complied', attachSubject: false, by: 'team', at: NOW.toISOString() },
    { type: 'respond', outcome: 'denied', reason: 'Unverifiable', attachSubject: false, by: 'team', at: NOW.toISOString() },
  ];

  it.each(COMBINATIONS.map((options) => [JSON.stringify(options), options] as const))(
    'from the summary the server sends of %s, the console allows exactly the steps the server would',
    (_name, options) => {
      const { record, row } = stored(options);
      const target = { request: summary(row, NOW, record), requestTypes: options.types };
      const console = privacyCourseAt(courseRecordOf(target), NOW);
      const server = privacyCourseOf(record, NOW);
      expect(console.value).toEqual(server.value);
      for (const event of EVENTS) expect(console.can(event)).toBe(server.can(event));
    },
  );

  it('allows an invite decision exactly when the server would not refuse it', () => {
    const events: InviteReviewEvent[] = [
      { type: 'review.accept', cohort: { name: 'Cohort 1', startsOn: '2027-01-15', capacity: 2, accepted: 1 } },
      { type: 'review.accept', cohort: { name: 'Cohort 2', startsOn: '2027-01-15', capacity: 2, accepted: 2 } },
      { type: 'review.waitlist' },
      { type: 'review.decline', reason: null },
      { type: 'review.spam' },
      { type: 'review.reopen' },
    ];
    for (const state of REVIEW_STATES) {
      for (const event of events) expect(reviewAt(state).can(event)).toBe(reviewRefusal('id', state, event) === null);
    }
    expect(reviewAt('received').value).toBe(inviteReviewMachine.resolveState({ value: 'received', context: undefined }).value);
  });

  it('takes a bulk decision only when the chart allows it on every request, and privacy steps one request at a time', () => {
    const invite = (state: 'received' | 'accepted') => ({
      request: { id: state, kind: 'invite' as const, receivedAt: NOW.toISOString(), fullName: 'A', email: 'a@example.com', company: 'A', status: 'open' as const, state },
      requestTypes: [],
    });
    const waitlist: DecisionDraft = { decision: 'waitlist' };
    expect(chartsAllow([invite('received'), invite('received')], waitlist, NOW.toISOString())).toBe(true);
    expect(chartsAllow([invite('received'), invite('accepted')], waitlist, NOW.toISOString())).toBe(false);
    expect(chartsAllow([], waitlist, NOW.toISOString())).toBe(false);
    const { record, row } = stored({ types: ['Delete'], verified: false, extended: false, responded: false, receivedDaysAgo: 10 });
    const privacy = { request: summary(row, NOW, record), requestTypes: ['Delete'] };
    expect(chartsAllow([privacy], { decision: 'verify' }, NOW.toISOString())).toBe(true);
    expect(chartsAllow([privacy, privacy], { decision: 'verify' }, NOW.toISOString())).toBe(false);
    expect(chartsAllow([privacy], waitlist, NOW.toISOString())).toBe(false);
    expect(chartsAllow([invite('received')], { decision: 'verify' }, NOW.toISOString())).toBe(false);
  });
});
