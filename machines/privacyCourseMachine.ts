import { and, assign, not, setup, stateIn } from 'xstate';
import { RETENTION } from '#shared/policy';
import { VERIFIED_REQUEST_TYPES } from '#shared/submission';
import type { CourseState, PrivacyOutcome, VerificationMethod } from '#shared/team';

/** How the team answered a privacy request, how its identity was confirmed, and its course as a member sees it (shared/team.ts). */
export type { CourseState, PrivacyOutcome, VerificationMethod };

/**
 * The record of 11 CCR §7101 the course keeps (the chart's context): the date and nature of the request,
 * the steps between, and the date, nature and basis of the response. Dates are ISO 8601 strings (UTC);
 * a step not taken yet is null. Nothing in it names the requester.
 */
export interface PrivacyCourseRecord {
  /** the nature of the request: the form's request types (shared/submission.ts `PRIVACY_REQUEST_TYPES`) */
  requestTypes: readonly string[];
  receivedAt: string;
  /** received + `RETENTION.privacyResponseDays`, and as many days more once extended */
  dueAt: string;
  verifiedAt: string | null;
  verifiedBy: VerificationMethod | null;
  extendedAt: string | null;
  extensionReason: string | null;
  respondedAt: string | null;
  outcome: PrivacyOutcome | null;
  /** the basis of a denial or a partial answer, or a note with a full one */
  outcomeReason: string | null;
  respondedBy: string | null;
}

/** A request as it is received: what the course starts from. */
export type PrivacyCourseInput = Pick<PrivacyCourseRecord, 'requestTypes' | 'receivedAt' | 'dueAt'>;

/** What the team asks of the course. `at` is when (ISO 8601); `clock.due` says the due date has passed. */
export type PrivacyCourseEvent =
  | { type: 'verify'; by: VerificationMethod; at: string }
  | { type: 'extend'; reason: string; at: string }
  | { type: 'respond'; outcome: PrivacyOutcome; reason?: string; attachSubject: boolean; by: string; at: string }
  | { type: 'clock.due' };

const DAY_MS = 86_400_000;

/** Whether a request of these types waits for its requester's confirmation before it is carried out (§7060(b), §7062). */
export function needsVerification(requestTypes: readonly string[]): boolean {
  return requestTypes.some((type) => (VERIFIED_REQUEST_TYPES as readonly string[]).includes(type));
}

/** Whether a response states its basis: a denial or a partial answer says why (§7022, §7024); a full one needs none. */
export function statesBasis(answer: { outcome: PrivacyOutcome; reason?: string | undefined }): boolean {
  return answer.outcome === 'complied' || Boolean(answer.reason?.trim());
}

/**
 * One privacy request's course under the CCPA regulations (11 CCR §7021, §7022, §7024, §7060, §7062,
 * §7101), from receipt to the response. Guards only, no side effects: the server and the command line
 * build its snapshot from the stored record (server/db/privacyCourse.ts) and ask it whether a step is
 * possible, with XState's pure functions; the record it keeps in its context is the §7101 record.
 */
export const privacyCourseMachine = setup({
  types: {
    context: {} as PrivacyCourseRecord,
    events: {} as PrivacyCourseEvent,
    input: {} as PrivacyCourseInput,
  },
  actions: {
    recordVerification: assign(({ event }) => (event.type === 'verify' ? { verifiedAt: event.at, verifiedBy: event.by } : {})),
    recordExtension: assign(({ context, event }) =>
      event.type === 'extend'
        ? {
            extendedAt: event.at,
            extensionReason: event.reason,
            dueAt: new Date(Date.parse(context.dueAt) + RETENTION.privacyResponseDays * DAY_MS).toISOString(),
          }
        : {},
    ),
    recordResponse: assign(({ event }) =>
      event.type === 'respond'
        ? { respondedAt: event.at, outcome: event.outcome, outcomeReason: event.reason?.trim() ? event.reason : null, respondedBy: event.by }
        : {},
    ),
  },
  guards: {
    needsVerification: ({ context }) => needsVerification(context.requestTypes),
    isPastDue: stateIn('#privacyCourse.received.deadline.overdue'),
    statesBasis: ({ event }) => event.type === 'respond' && statesBasis(event),
    isComplied: ({ event }) => event.type === 'respond' && event.outcome === 'complied',
    attachesSubject: ({ event }) => event.type === 'respond' && event.attachSubject,
    givesReason: ({ event }) => event.type === 'extend' && event.reason.trim() !== '',
  },
}).createMachine({
  id: 'privacyCourse',
  description:
    "One privacy request's course (11 CCR §7021, §7022, §7060, §7101): received, its identity checked, extended once, answered; the team's command line and the verification link ask it whether a step is possible.",
  context: ({ input }) => ({
    requestTypes: input.requestTypes,
    receivedAt: input.receivedAt,
    dueAt: input.dueAt,
    verifiedAt: null,
    verifiedBy: null,
    extendedAt: null,
    extensionReason: null,
    respondedAt: null,
    outcome: null,
    outcomeReason: null,
    respondedBy: null,
  }),
  initial: 'received',
  states: {
    received: {
      type: 'parallel',
      description:
        'Received and not answered yet: the confirmation of receipt goes out (11 CCR §7021(a)), and a response is owed by the due date, 45 days after receipt (§7021(b)). The record of §7101 keeps the date, the nature and the method of the request from here on.',
      states: {
        identity: {
          description: 'Whether the requester has confirmed it is them (11 CCR §7060, §7062), which decides what the response may be.',
          initial: 'sorting',
          states: {
            sorting: {
              description: 'The request types decide whether an identity check is owed (§7060(b)): to know, delete, correct or port, yes; an opt-out, no (§7026).',
              always: [
                { guard: 'needsVerification', target: 'unverified', description: 'A request to know, delete, correct or port waits for its requester to confirm it is them.' },
                { target: 'notNeeded', description: 'An opt-out (or other) request alone needs no identity check.' },
              ],
            },
            unverified: {
              description:
                'A request to know, delete, correct or port that its requester has not confirmed (§7060): it is not carried out, and nothing about the requester is sent; it can still be denied, or answered in part, with the basis (§7062).',
              on: {
                verify: {
                  guard: not('isPastDue'),
                  target: 'verified',
                  actions: 'recordVerification',
                  description: 'The requester confirmed it: by the verification link, or as the team records (e.g. a reply from the address). Only before the due date.',
                },
                respond: {
                  guard: and(['statesBasis', not('isComplied'), not('attachesSubject')]),
                  target: '#privacyCourse.responded',
                  actions: 'recordResponse',
                  description: 'Denied (unverifiable, §7062) or answered in part, with the basis; no data of the requester attached.',
                },
              },
            },
            notNeeded: {
              description: 'An opt-out or other request that needs no identity check (§7026): it can be complied with as it is; a confirmation is still recorded if one comes.',
              on: {
                verify: {
                  guard: not('isPastDue'),
                  target: 'verified',
                  actions: 'recordVerification',
                  description: 'The requester confirmed it all the same: recorded. Only before the due date.',
                },
                respond: {
                  guard: and(['statesBasis', not('attachesSubject')]),
                  target: '#privacyCourse.responded',
                  actions: 'recordResponse',
                  description: 'Complied with, denied or answered in part (the latter two with the basis); no data attached, the requester being unconfirmed.',
                },
              },
            },
            verified: {
              description: 'The requester confirmed it is them (§7060), by the link or as recorded by the team: the request may be carried out, and their data sent with the response.',
              on: {
                respond: {
                  guard: 'statesBasis',
                  target: '#privacyCourse.responded',
                  actions: 'recordResponse',
                  description: 'Complied with (their data attached for a request to know or port), denied or answered in part with the basis (§7022, §7024).',
                },
              },
            },
          },
        },
        deadline: {
          description: 'The time the law gives (11 CCR §7021(b)): 45 days from receipt, once extended by 45 more with a notice.',
          initial: 'onTime',
          states: {
            onTime: {
              description: 'Before the due date, not extended: the response, a verification or the one extension may come.',
              on: {
                extend: {
                  guard: 'givesReason',
                  target: 'extended',
                  actions: 'recordExtension',
                  description: 'The one extension of §7021(b): the due date moves 45 days on, and the requester is sent a notice with the reason.',
                },
                'clock.due': { target: 'overdue', description: 'The due date passed without a response.' },
              },
            },
            extended: {
              description: 'Extended once (§7021(b)), with the notice sent: no second extension; the response is owed by the new due date.',
              on: {
                'clock.due': { target: 'overdue', description: 'The extended due date passed without a response.' },
              },
            },
            overdue: {
              description:
                'Past the due date without a response: the response is still owed, and may still be given (denied, in part, or complied with as the identity allows); an extension can no longer be noticed, and no identity check is recorded, by link or by the team.',
            },
          },
        },
      },
    },
    responded: {
      type: 'final',
      description:
        'Answered (11 CCR §7022, §7024): the record of §7101 keeps the date and nature of the response and the basis of a denial, for 24 months, after the request itself is erased. Nothing more is done: no second response, extension or verification.',
    },
  },
});

/**
 * The course's snapshot of a request whose §7101 record is `record`, at `now`: `responded` once answered;
 * else `received`, its identity `verified` (a verification recorded), `unverified` or `notNeeded` (only
 * opt-out or other types, {@link needsVerification}), and its deadline `overdue` from the due date on
 * (`now >= dueAt`: the clock's `clock.due` has come), else `extended` or `onTime`. What the server reads
 * from its stored row and the console from a request's summary, so that both ask the same chart
 * (`snapshot.can(event)`). Pure: reads nothing, throws nothing.
 */
export function privacyCourseAt(record: PrivacyCourseRecord, now: Date) {
  const identity = record.verifiedAt ? 'verified' : needsVerification(record.requestTypes) ? 'unverified' : 'notNeeded';
  const deadline = now.getTime() >= Date.parse(record.dueAt) ? 'overdue' : record.extendedAt ? 'extended' : 'onTime';
  const value = record.respondedAt ? 'responded' : { received: { identity, deadline } };
  return privacyCourseMachine.resolveState({ value, context: record });
}


/** Every {@link CourseState}, in the chart's order (what `--from` and the console's steps take). */
export const COURSE_STATES = ['unverified', 'notNeeded', 'verified', 'unverified.extended', 'notNeeded.extended', 'verified.extended', 'responded'] as const satisfies readonly CourseState[];

/**
 * The {@link CourseState} of a course's snapshot ({@link privacyCourseAt}): what the console sends as the
 * state its member saw, and what the server compares it with, under the request's lock. Pure.
 */
export function courseStateOf(course: ReturnType<typeof privacyCourseAt>): CourseState {
  if (course.matches('responded')) return 'responded';
  const identity = course.matches({ received: { identity: 'verified' } }) ? 'verified' : course.matches({ received: { identity: 'unverified' } }) ? 'unverified' : 'notNeeded';
  return course.context.extendedAt ? `${identity}.extended` : identity;
}
