import type { Cohort, CourseState, PrivacyOutcome, ReviewState, RequestSummary } from '#shared/team';
import { RETENTION } from '#shared/policy';
import { reviewAt, type InviteReviewEvent } from './inviteReviewMachine';
import { courseStateOf, privacyCourseAt, type PrivacyCourseEvent, type PrivacyCourseRecord } from './privacyCourseMachine';

// What the console asks the decision charts before a decision is offered (machines/teamDecisionMachine.ts
// and the views that enable its buttons): the charts' snapshots from what a request's summary shows.
// Pure: the charts and #shared only.

/** A decision on invite requests, or a step on a privacy request, as the member fills it in. */
export type DecisionDraft =
  | { decision: 'accept'; cohort: Cohort }
  | { decision: 'waitlist' }
  | { decision: 'decline'; reason: string }
  | { decision: 'spam' }
  | { decision: 'reopen' }
  | { decision: 'verify' }
  | { decision: 'extend'; reason: string }
  | { decision: 'respond'; outcome: PrivacyOutcome; reason: string; attachSubject: boolean };

/** A request a decision is about: its summary, and for a privacy request the types asked (its fields). */
export interface DecisionTarget {
  request: RequestSummary;
  /** a privacy request's types (shared/submission.ts `PRIVACY_REQUEST_TYPES`); empty for an invite */
  requestTypes: readonly string[];
}

const DAY_MS = 86_400_000;

/**
 * The §7101 record of the course's chart as a request's summary shows it. The summary carries the
 * verification, the due date, the outcome and when it was handled, not the dates of each step: a date
 * it lacks is the receipt's, which no guard of the chart reads. Extended: the due date lies more than
 * `RETENTION.privacyResponseDays` after receipt (11 CCR §7021(b)).
 */
export function courseRecordOf(target: DecisionTarget): PrivacyCourseRecord {
  const { request } = target;
  const receivedAt = request.receivedAt;
  const dueAt = request.dueAt ?? new Date(Date.parse(receivedAt) + RETENTION.privacyResponseDays * DAY_MS).toISOString();
  const extended = Date.parse(dueAt) - Date.parse(receivedAt) > RETENTION.privacyResponseDays * DAY_MS;
  const responded = request.outcome !== undefined || request.status === 'done';
  return {
    requestTypes: target.requestTypes,
    receivedAt,
    dueAt,
    verifiedAt: request.verification === 'verified' ? receivedAt : null,
    verifiedBy: request.verification === 'verified' ? 'team' : null,
    extendedAt: extended ? receivedAt : null,
    extensionReason: null,
    respondedAt: responded ? (request.handledAt ?? receivedAt) : null,
    outcome: request.outcome ?? null,
    outcomeReason: null,
    respondedBy: request.handledBy ?? null,
  };
}

/** The review's event for an invite decision; undefined for a privacy step. */
function reviewEventOf(draft: DecisionDraft): InviteReviewEvent | undefined {
  switch (draft.decision) {
    case 'accept':
      return { type: 'review.accept', cohort: draft.cohort };
    case 'decline':
      return { type: 'review.decline', reason: draft.reason.trim() || null };
    case 'waitlist':
    case 'spam':
    case 'reopen':
      return { type: `review.${draft.decision}` };
    default:
      return undefined;
  }
}

/** The course's event for a privacy step; undefined for an invite decision. */
function courseEventOf(draft: DecisionDraft, at: string): PrivacyCourseEvent | undefined {
  switch (draft.decision) {
    case 'verify':
      return { type: 'verify', by: 'team', at };
    case 'extend':
      return { type: 'extend', reason: draft.reason, at };
    case 'respond':
      return { type: 'respond', outcome: draft.outcome, reason: draft.reason, attachSubject: draft.attachSubject, by: 'team', at };
    default:
      return undefined;
  }
}

/**
 * Whether the decision charts allow `draft` on every target at `at`: the review's
 * (machines/inviteReviewMachine.ts) for invite requests, built from their stored state; the course's
 * (machines/privacyCourseMachine.ts) for one privacy request, built from its summary and the clock.
 * The server asks the same charts, and refuses (409) what they refuse.
 */
export function chartsAllow(targets: readonly DecisionTarget[], draft: DecisionDraft, at: string): boolean {
  if (targets.length === 0) return false;
  const review = reviewEventOf(draft);
  if (review) return targets.every(({ request }) => request.kind === 'invite' && request.state !== undefined && reviewAt(request.state).can(review));
  const step = courseEventOf(draft, at);
  return (
    step !== undefined &&
    targets.length === 1 &&
    targets.every((target) => target.request.kind === 'privacy' && privacyCourseAt(courseRecordOf(target), new Date(at)).can(step))
  );
}


/**
 * The review state of each invite request as the member saw it, by id: what a decision is taken `from`,
 * so that the server refuses it (409) when another member decided meanwhile.
 */
export function seenReviewStates(targets: readonly DecisionTarget[]): Record<string, ReviewState> {
  return Object.fromEntries(targets.flatMap(({ request }) => (request.state ? [[request.id, request.state]] : [])));
}

/**
 * A privacy request's course state as the member saw it: the summary's own (`course`), else read off the
 * course's chart from what the summary shows ({@link courseRecordOf}); what a step is taken `from`.
 */
export function seenCourseState(target: DecisionTarget): CourseState {
  const record = courseRecordOf(target);
  // the course state leaves the clock's `overdue` out, so any moment reads the same state: the receipt's
  return target.request.course ?? courseStateOf(privacyCourseAt(record, new Date(record.receivedAt)));
}
