// The course of a privacy request (11 CCR §7021, §7022, §7024, §7060, §7062, §7101) as a chart, asked
// with XState's pure functions only: each step it takes, and each it refuses.
import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import {
  needsVerification,
  privacyCourseMachine,
  statesBasis,
  type PrivacyCourseEvent,
  type PrivacyCourseRecord,
} from '#machines/privacyCourseMachine';

type Course = SnapshotFrom<typeof privacyCourseMachine>;

const RECEIVED = '2026-03-01T10:00:00.000Z';
const DUE = '2026-04-15T10:00:00.000Z';
const AT = '2026-03-05T09:00:00.000Z';

const start = (...requestTypes: string[]): Course => initialTransition(privacyCourseMachine, { requestTypes, receivedAt: RECEIVED, dueAt: DUE })[0];
const step = (course: Course, event: PrivacyCourseEvent): Course => transition(privacyCourseMachine, course, event)[0];
const steps = (course: Course, ...events: PrivacyCourseEvent[]): Course => events.reduce(step, course);

const verify = (by: 'link' | 'team' = 'link'): PrivacyCourseEvent => ({ type: 'verify', by, at: AT });
const extend = (reason = 'Backups take two weeks to search.'): PrivacyCourseEvent => ({ type: 'extend', reason, at: AT });
const due: PrivacyCourseEvent = { type: 'clock.due' };
const respond = (outcome: 'complied' | 'denied' | 'partly', options: { reason?: string; attachSubject?: boolean } = {}): PrivacyCourseEvent => ({
  type: 'respond',
  outcome,
  ...(options.reason === undefined ? {} : { reason: options.reason }),
  attachSubject: options.attachSubject ?? false,
  by: 'kim',
  at: AT,
});

describe('privacyCourseMachine: received (11 CCR §7021(a))', () => {
  it('starts received, on time, unverified for a request to know, delete, correct or port', () => {
    for (const type of ['Access/Know', 'Delete', 'Correct', 'Data Portability']) {
      expect(start(type, 'Opt-Out').value).toEqual({ received: { identity: 'unverified', deadline: 'onTime' } });
    }
  });

  it('needs no identity check for an opt-out or other request alone (§7026)', () => {
    expect(start('Opt-Out').value).toEqual({ received: { identity: 'notNeeded', deadline: 'onTime' } });
    expect(start('Opt-Out', 'Other').value).toEqual({ received: { identity: 'notNeeded', deadline: 'onTime' } });
    expect(needsVerification(['Other'])).toBe(false);
    expect(needsVerification(['Other', 'Correct'])).toBe(true);
  });

  it('keeps the record of §7101 from receipt: date, nature, due date; no step yet', () => {
    expect(start('Delete').context).toEqual<PrivacyCourseRecord>({
      requestTypes: ['Delete'],
      receivedAt: RECEIVED,
      dueAt: DUE,
      verifiedAt: null,
      verifiedBy: null,
      extendedAt: null,
      extensionReason: null,
      respondedAt: null,
      outcome: null,
      outcomeReason: null,
      respondedBy: null,
    });
  });
});

describe('privacyCourseMachine: verified (§7060, §7062)', () => {
  it('is verified by the link or by the team, and records how and when', () => {
    for (const by of ['link', 'team'] as const) {
      const course = step(start('Delete'), verify(by));
      expect(course.value).toEqual({ received: { identity: 'verified', deadline: 'onTime' } });
      expect(course.context).toMatchObject({ verifiedAt: AT, verifiedBy: by });
    }
  });

  it('records a confirmation of an opt-out too', () => {
    expect(step(start('Opt-Out'), verify('team')).matches({ received: { identity: 'verified' } })).toBe(true);
  });

  it('is verified once, after an extension too, and never after the due date', () => {
    expect(step(start('Delete'), verify()).can(verify())).toBe(false);
    expect(steps(start('Delete'), extend(), verify()).matches({ received: { identity: 'verified', deadline: 'extended' } })).toBe(true);
    expect(step(start('Delete'), due).can(verify())).toBe(false);
    expect(step(start('Opt-Out'), due).can(verify('team'))).toBe(false);
    expect(steps(start('Delete'), extend(), due).can(verify())).toBe(false);
  });
});

describe('privacyCourseMachine: extended once (§7021(b))', () => {
  it('moves the due date 45 days on, with the reason the notice gives', () => {
    const course = step(start('Delete'), extend('Three systems to search.'));
    expect(course.value).toEqual({ received: { identity: 'unverified', deadline: 'extended' } });
    expect(course.context).toMatchObject({ extendedAt: AT, extensionReason: 'Three systems to search.', dueAt: '2026-05-30T10:00:00.000Z' });
  });

  it('refuses a second extension, one after the due date, and one without a reason', () => {
    expect(step(start('Delete'), extend()).can(extend())).toBe(false);
    expect(step(start('Delete'), due).can(extend())).toBe(false);
    expect(start('Delete').can(extend('  '))).toBe(false);
  });
});

describe('privacyCourseMachine: overdue', () => {
  it('is past the due date, extended or not, with the response still owed', () => {
    expect(step(start('Delete'), due).value).toEqual({ received: { identity: 'unverified', deadline: 'overdue' } });
    expect(steps(start('Delete'), extend(), due).value).toEqual({ received: { identity: 'unverified', deadline: 'overdue' } });
    expect(steps(start('Delete'), verify(), due).can(respond('complied', { attachSubject: true }))).toBe(true);
    expect(step(start('Delete'), due).can(respond('denied', { reason: 'Not confirmed by the due date (§7062).' }))).toBe(true);
    expect(step(start('Opt-Out'), due).can(respond('complied'))).toBe(true);
  });
});

describe('privacyCourseMachine: responded (§7022, §7024)', () => {
  it('records the date, nature and basis of the response, and who gave it', () => {
    const course = steps(start('Delete'), verify(), respond('partly', { reason: 'Invoices are kept 7 years (tax law).' }));
    expect(course.value).toBe('responded');
    expect(course.status).toBe('done');
    expect(course.context).toMatchObject({ respondedAt: AT, outcome: 'partly', outcomeReason: 'Invoices are kept 7 years (tax law).', respondedBy: 'kim' });
  });

  it('complies with a verified request, its data attached, or with an opt-out as it is', () => {
    expect(step(start('Access/Know'), verify()).can(respond('complied', { attachSubject: true }))).toBe(true);
    expect(start('Opt-Out').can(respond('complied'))).toBe(true);
    expect(start('Opt-Out').can(respond('complied', { reason: 'Done on all our lists.' }))).toBe(true);
  });

  it('refuses to carry out an unverified request to know, delete, correct or port (§7060), and denies it with a basis', () => {
    const unverified = start('Access/Know');
    expect(unverified.can(respond('complied'))).toBe(false);
    expect(unverified.can(respond('denied', { reason: 'Not confirmed (§7062).' }))).toBe(true);
    expect(unverified.can(respond('partly', { reason: 'The opt-out is done; the rest unconfirmed.' }))).toBe(true);
  });

  it("refuses to send the requester's data before they confirmed it is them", () => {
    expect(start('Access/Know').can(respond('denied', { reason: 'x', attachSubject: true }))).toBe(false);
    expect(start('Opt-Out').can(respond('complied', { attachSubject: true }))).toBe(false);
  });

  it('refuses a denial or a partial answer without its basis', () => {
    const verified = step(start('Delete'), verify());
    expect(verified.can(respond('denied'))).toBe(false);
    expect(verified.can(respond('partly', { reason: ' ' }))).toBe(false);
    expect(statesBasis({ outcome: 'complied' })).toBe(true);
    expect(statesBasis({ outcome: 'denied', reason: 'Not confirmed.' })).toBe(true);
  });

  it('refuses anything after the response: a second one, a verification, an extension, the clock', () => {
    const answered = steps(start('Delete'), respond('denied', { reason: 'Not confirmed.' }));
    for (const event of [respond('complied'), respond('denied', { reason: 'Again.' }), verify(), verify('team'), extend(), due]) {
      expect(answered.can(event), event.type).toBe(false);
      expect(step(answered, event)).toBe(answered);
    }
  });
});

describe('privacyCourseMachine: a snapshot from a stored record', () => {
  it('resolves any state with its record, and asks it as one reached by its steps', () => {
    const stored = privacyCourseMachine.resolveState({
      value: { received: { identity: 'verified', deadline: 'extended' } },
      context: { ...start('Delete').context, verifiedAt: AT, verifiedBy: 'team', extendedAt: AT, extensionReason: 'x' },
    });
    expect(stored.can(extend())).toBe(false);
    expect(stored.can(respond('complied', { attachSubject: true }))).toBe(true);
    expect(step(stored, due).value).toEqual({ received: { identity: 'verified', deadline: 'overdue' } });
  });
});
