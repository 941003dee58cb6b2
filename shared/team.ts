import type { SubmissionKind } from './submission.ts';

// The team's API (`/api/team/*`) as both sides read it: the server answers these shapes
// (server/http/team/), the console (src/services/teamApi.ts) reads them. The rules behind them are the
// decision charts' (machines/inviteReviewMachine.ts, machines/privacyCourseMachine.ts).

/** Where the team's API is mounted. */
export const TEAM_API_PATH = '/api/team';

/** Where an enrollment link leads (`#token=…` in its fragment, which the page takes out of the address bar). */
export const TEAM_ENROLL_PATH = '/team/enroll';

/** The console's pages: the queue at `/team`, a request at `/team/requests/:id`, the cohorts, and where an enrollment link leads. */
export const TEAM_PATHS = {
  queue: '/team',
  request: (id: string) => `/team/requests/${encodeURIComponent(id)}`,
  cohorts: '/team/cohorts',
  enroll: TEAM_ENROLL_PATH,
} as const;

/** A state of the review of an invite request (machines/inviteReviewMachine.ts), as `submissions.review_state` stores it. */
export type ReviewState = 'received' | 'accepted' | 'waitlisted' | 'declined' | 'spam';

/** A decision's name as the team types it (`requests accept`, …), as the console sends it and as the timeline keeps it. */
export type InviteDecision = 'accept' | 'waitlist' | 'decline' | 'spam' | 'reopen';

/** How the team answered a privacy request (11 CCR §7022(e), §7024): in full, not at all, or in part. */
export type PrivacyOutcome = 'complied' | 'denied' | 'partly';

/** How a privacy request's identity was confirmed (11 CCR §7060): by its verification link, or recorded by the team. */
export type VerificationMethod = 'link' | 'team';

/**
 * A privacy request's course (machines/privacyCourseMachine.ts) as a member sees it, the state a step is
 * taken from: `responded`, or the identity region's state (`unverified`, `notNeeded`, `verified`) with
 * `.extended` once the one extension is taken (11 CCR §7021(b)). The deadline's `overdue` is left out: the
 * clock moves it, not a member, and the chart refuses what a passed due date forbids.
 */
export type CourseState = `${'unverified' | 'notNeeded' | 'verified'}${'' | '.extended'}` | 'responded';

/** The team's steps on a privacy request (11 CCR §7060, §7021(b), §7022, §7024). */
export type PrivacyStep = 'verify' | 'extend' | 'respond';

/** The queue's `state` filter: a review state, a request `open` or `done`, or an open privacy request `overdue`. */
export type QueueState = ReviewState | 'open' | 'done' | 'overdue';

/** A request as the command line (`list --json`, `export --format json`) and the team's console (`GET /api/team/requests`) show it. */
export interface RequestSummary {
  id: string;
  kind: SubmissionKind;
  /** ISO 8601 */
  receivedAt: string;
  fullName: string;
  email: string;
  company: string;
  status: 'open' | 'done';
  /** invite requests: where the review stands (machines/inviteReviewMachine.ts) */
  state?: ReviewState;
  /** accepted invite requests: the cohort's name */
  cohort?: string;
  /** the first request of the same kind from the same mailbox, when this one repeats it */
  duplicateOf?: string;
  /** privacy requests only: ISO 8601, received + 45 days (+ 45 more when extended) */
  dueAt?: string;
  /** privacy requests still open: whole days until `dueAt`, negative when overdue */
  daysLeft?: number;
  handledAt?: string;
  handledBy?: string;
  note?: string;
  /** privacy requests: whether the requester's identity is confirmed (11 CCR §7060); `not needed` for an opt-out */
  verification?: 'verified' | 'unverified' | 'not needed';
  /** privacy requests answered with `respond`: complied, denied or partly */
  outcome?: PrivacyOutcome;
  /** privacy requests: the course's state (machines/privacyCourseMachine.ts), what a step is taken `from` */
  course?: CourseState;
}

/** The queue's filters (`GET /api/team/requests` and `/requests.csv` query parameters); absent: any. */
export interface QueueFilters {
  kind?: SubmissionKind;
  state?: QueueState;
  /** a cohort's name */
  cohort?: string;
  /** text in the name, email or company, any case */
  q?: string;
}

/** `GET /api/team/requests`: one page, newest first. */
export interface QueuePage {
  requests: RequestSummary[];
  /** the cursor of the next page (`after=`), null on the last */
  next: string | null;
  /** requests per state (a review state, `open`, `done`, `overdue`) for every filter but `state` */
  counts: Partial<Record<QueueState, number>>;
}

/** One entry of a request's timeline: what happened and when (ISO 8601), with its details as text. */
export type TimelineEntry = { event: string; at: string } & Record<string, string>;

/** `GET /api/team/requests/:id`: a request's page. */
export interface RequestDetail {
  request: RequestSummary;
  /** every field as submitted, but the client metadata */
  fields: Record<string, unknown>;
  /** the client metadata of spec §3; null where the request had none */
  metadata: Record<string, string | null>;
  timeline: TimelineEntry[];
  /**
   * the other requests from the same mailbox (case, `+tag`, Gmail's dots and googlemail.com set aside),
   * newest first; `state`: an invite's review state, else `open` or `done`; `email`: the address it came
   * from (lower-cased); `sameAddress`: from this request's very address, so in its export and erasure;
   * otherwise another spelling that may be the same person or not, acted on only by its own request
   */
  sameMailbox: Array<{ id: string; kind: SubmissionKind; receivedAt: string; state: string; email: string; sameAddress: boolean }>;
}

/** A cohort (`GET /api/team/cohorts`). */
export interface Cohort {
  id: string;
  name: string;
  /** `YYYY-MM-DD` */
  startsOn: string;
  /** how many accepted requests it takes; null: no limit */
  capacity: number | null;
  /** how many it holds now */
  accepted: number;
}

/** `POST /api/team/decisions`: one decision on up to `TEAM_DECISION_BATCH_MAX` invite requests. */
export interface DecisionRequest {
  decision: InviteDecision;
  ids: string[];
  /** each id's review state as the member saw it: the decision is taken only if every request is still so (else 409 with `changed`) */
  from: Record<string, ReviewState>;
  /** accept: the cohort's name */
  cohort?: string;
  /** decline: the reason told to the applicant */
  reason?: string;
  /** a note kept in the timeline */
  note?: string;
}

/** `POST /api/team/privacy/:step` bodies. */
export type PrivacyStepRequest = { id: string; from: CourseState } & (
  | { step: 'verify' }
  | { step: 'extend'; reason: string }
  | { step: 'respond'; outcome: PrivacyOutcome; reason?: string; attachSubject?: boolean }
);

/** `POST /api/team/preview`: a decision or step whose mails to show before it is confirmed. */
export interface PreviewRequest {
  decision: InviteDecision | PrivacyStep;
  /** 1 to `TEAM_DECISION_BATCH_MAX` request ids */
  ids: string[];
  cohort?: string;
  reason?: string;
  outcome?: PrivacyOutcome;
  attachSubject?: boolean;
}

/** One mail of a preview (`POST /api/team/preview` → `{ mails: MailPreview[] }`); none for spam, reopen or verify. */
export interface MailPreview {
  /** the request the mail is about */
  id: string;
  to: string;
  subject: string;
  text: string;
}

/** The member signed in (`GET /api/team/session`, and the sign-in and enrollment answers). */
export interface TeamMember {
  email: string;
  name: string | null;
}

/**
 * A request that was no longer in the state a member decided from (409): the state they saw, the state
 * it is in, and the change that put it there (the timeline's or the privacy record's) with who and when;
 * `by` and `at` are null when nothing recorded says (a state the request never had).
 */
export interface ChangedMeanwhile {
  id: string;
  /** the state the member saw: a review state, or a privacy request's {@link CourseState} */
  seen: string;
  /** the state it is in now */
  state: string;
  /** what changed it: a timeline action (`declined`, `reopened`, …), or `verified`, `extended`, `responded` */
  action: string | null;
  by: string | null;
  /** ISO 8601 */
  at: string | null;
}

/**
 * An answer other than 2xx: `{ error }`, with the chart's refusals of a decision (409), and for a request
 * that changed since the member saw it, what changed it (409).
 */
export interface TeamProblem {
  error: string;
  refusals?: string[];
  changed?: ChangedMeanwhile[];
}
