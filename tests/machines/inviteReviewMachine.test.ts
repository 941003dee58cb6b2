import { describe, expect, it } from 'vitest';
import { inviteReviewMachine, REVIEW_STATES, type InviteReviewEvent, type ReviewState } from '#machines/inviteReviewMachine';

const cohort = (capacity: number | null, accepted: number) => ({ name: 'Cohort 3', startsOn: '2027-01-15', capacity, accepted });
const ACCEPT: InviteReviewEvent = { type: 'review.accept', cohort: cohort(25, 0) };
const DECISIONS: InviteReviewEvent[] = [ACCEPT, { type: 'review.waitlist' }, { type: 'review.decline', reason: null }, { type: 'review.spam' }, { type: 'review.reopen' }];

/** What the chart allows from a stored state, as the server asks it (resolveState, can). */
const allowed = (state: ReviewState) =>
  DECISIONS.filter((event) => inviteReviewMachine.resolveState({ value: state, context: undefined }).can(event)).map((event) => event.type);

describe('the invite review chart', () => {
  it('lists its states in order, received first', () => {
    expect(REVIEW_STATES).toEqual(['received', 'waitlisted', 'accepted', 'declined', 'spam']);
  });

  it.each([
    ['received', ['review.accept', 'review.waitlist', 'review.decline', 'review.spam']],
    ['waitlisted', ['review.accept', 'review.decline']],
    ['accepted', []],
    ['declined', ['review.reopen']],
    ['spam', ['review.reopen']],
  ] as const)('from %s allows exactly %j', (state, events) => {
    expect(allowed(state)).toEqual(events);
  });

  it('accepts into a cohort only while it has a seat; a cohort without capacity always has one', () => {
    const received = inviteReviewMachine.resolveState({ value: 'received', context: undefined });
    expect(received.can({ type: 'review.accept', cohort: cohort(25, 24) })).toBe(true);
    expect(received.can({ type: 'review.accept', cohort: cohort(25, 25) })).toBe(false);
    expect(received.can({ type: 'review.accept', cohort: cohort(null, 10_000) })).toBe(true);
  });

  it('ends at accepted: the credentials cannot be taken back by the review', () => {
    expect(inviteReviewMachine.resolveState({ value: 'accepted', context: undefined }).status).toBe('done');
  });
});
