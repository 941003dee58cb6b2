import { setup } from 'xstate';
import type { InviteDecision, ReviewState } from '#shared/team';

/** A cohort as an acceptance sees it: its size when the decision is asked. */
export interface CohortSeats {
  name: string;
  /** ISO 8601 date, `YYYY-MM-DD` */
  startsOn: string;
  /** how many accepted requests it takes; null: no limit */
  capacity: number | null;
  /** how many it holds now */
  accepted: number;
}

/** The team's decisions on one invite request (spec §2, /thank-you: the three next steps). */
export type InviteReviewEvent =
  | { type: 'review.accept'; cohort: CohortSeats }
  | { type: 'review.waitlist' }
  | { type: 'review.decline'; reason: string | null }
  | { type: 'review.spam' }
  | { type: 'review.reopen' };


/** The state each decision leads to. */
export const DECIDED_STATE = {
  accept: 'accepted',
  waitlist: 'waitlisted',
  decline: 'declined',
  spam: 'spam',
  reopen: 'received',
} as const satisfies Record<InviteDecision, string>;

/**
 * The team's review of an invite request, from the moment it is stored until the applicant has their
 * answer (spec §2, /thank-you: "the team reviews the request; they reach out when ready to onboard;
 * approved applicants are placed in a cohort and given API credentials"). It holds the rules only:
 * the server builds a snapshot from the stored state (`resolveState`) and asks it whether a decision is
 * possible (`can`), so the command line and the console share one copy of them. What a decision writes
 * (the timeline, the mail, the signed event) is server/db/decisions.ts.
 */
export const inviteReviewMachine = setup({
  types: {
    events: {} as InviteReviewEvent,
  },
  guards: {
    cohortHasRoom: ({ event }) => event.type === 'review.accept' && (event.cohort.capacity === null || event.cohort.accepted < event.cohort.capacity),
  },
}).createMachine({
  id: 'inviteReview',
  description:
    "Spec §2, /thank-you's next steps: the team's review of an invite request, from stored to the applicant's answer. Each decision is recorded in the request's timeline with who and when, and mails the applicant (spam and reopen excepted).",
  initial: 'received',
  states: {
    received: {
      description:
        "Spec §2 step 1, \"the team reviews the request\": stored and acknowledged, waiting for the team's decision. Every request starts here; a reopened one comes back here.",
      on: {
        'review.accept': { target: 'accepted', guard: 'cohortHasRoom' },
        'review.waitlist': { target: 'waitlisted' },
        'review.decline': { target: 'declined' },
        'review.spam': { target: 'spam' },
      },
    },
    waitlisted: {
      description:
        'Spec §2 step 2, "they reach out when ready to onboard": the applicant is told the beta admits teams on a rolling basis and that the team will reach out. It can later be accepted or declined.',
      on: {
        'review.accept': { target: 'accepted', guard: 'cohortHasRoom' },
        'review.decline': { target: 'declined' },
      },
    },
    accepted: {
      type: 'final',
      description:
        'Spec §2 step 3, "approved applicants are placed in a cohort and given API credentials": the applicant is told their cohort and its start date, and the signed invite.accepted event lets the API\'s onboarding issue credentials. Final: the mail and the credentials cannot be taken back by this review.',
    },
    declined: {
      description: "Not this time: the applicant is told so politely, with the team's reason when one is given. The team can reopen it.",
      on: { 'review.reopen': { target: 'received' } },
    },
    spam: {
      description: 'Not a real request: no mail, no event, hidden from the queue. Reversible: reopened, it is received again.',
      on: { 'review.reopen': { target: 'received' } },
    },
  },
});

/** A state of {@link inviteReviewMachine} (shared/team.ts), and a decision's name. */
export type { InviteDecision, ReviewState };

/**
 * The review's snapshot for a request stored in `state` (`submissions.review_state`): what the server,
 * the command line and the console ask `can(event)` of, so that each enables or takes a decision by the
 * same chart. Pure: XState's `resolveState`, no actor started.
 */
export function reviewAt(state: ReviewState) {
  return inviteReviewMachine.resolveState({ value: state, context: undefined });
}

/** The chart's states, in its order (what `list --state` takes). */
export const REVIEW_STATES = Object.keys(inviteReviewMachine.root.states) as ReviewState[];
