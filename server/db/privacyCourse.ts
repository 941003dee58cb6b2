import type { SnapshotFrom } from 'xstate';
import {
  privacyCourseAt,
  type privacyCourseMachine,
  statesBasis,
  type PrivacyCourseEvent,
  type PrivacyCourseRecord,
  type PrivacyOutcome,
} from '#machines/privacyCourseMachine';
import type { privacyRecords } from './schema.ts';

// The rules of a privacy request's course live in one chart, machines/privacyCourseMachine.ts. The
// server and the command line do not repeat them: they build the chart's snapshot from the stored record
// (`privacy_records`) and the clock ({@link privacyCourseOf}), and ask it whether a step is possible
// ({@link refusalOf}). The one statement that writes the step then guards only against a concurrent
// change: its where-clause holds the state as it was read (e.g. `responded_at is null`), under the row
// lock where the command holds one, so that a step taken meanwhile wins and this one writes nothing.

type PrivacyRecordRow = typeof privacyRecords.$inferSelect;

/** A privacy request's course as the chart sees it: state value and the §7101 record (its context). */
export type PrivacyCourse = SnapshotFrom<typeof privacyCourseMachine>;

/** Which rule of the course refused a step. */
export type RefusalRule =
  /** the request is answered: nothing more is done (11 CCR §7022, §7024) */
  | 'answered'
  /** past the due date: no verification, no extension (§7021(b)) */
  | 'pastDue'
  /** the one extension was taken (§7021(b)) */
  | 'extendedAlready'
  /** the identity is confirmed already: nothing to record (not an error for the command line) */
  | 'verifiedAlready'
  /** a full answer to a request to know, delete, correct or port before its requester confirmed it (§7060) */
  | 'notVerified'
  /** the requester's data sent before they confirmed it is them (§7060) */
  | 'dataOfUnverified'
  /** a denial or a partial answer without its basis (§7022, §7024): a bad argument */
  | 'noBasis'
  /** an extension without the reason its notice gives (§7021(b)): a bad argument */
  | 'noReason'
  /** any other step the chart does not take from this state */
  | 'notNow';

/**
 * Who reads a refusal: the team's command line, whose words name its commands and flags (`--reason`,
 * `verify <id>`), or the team's API, whose answers the console shows and which names its fields and steps.
 */
export type Reader = 'cli' | 'api';

/** The words of a refusal that differ between its two readers: what to do instead. */
const INSTEAD = {
  cli: {
    basis: (outcome: PrivacyOutcome) => `error: --reason is required when the outcome is ${outcome}`,
    confirmOrDeny: (id: string) => `Record how they confirmed with verify ${id}, or answer --outcome denied (or partly) with the reason`,
    respond: 'answer it with respond',
  },
  api: {
    basis: (outcome: PrivacyOutcome) => `reason is required when the outcome is ${outcome}`,
    confirmOrDeny: () => 'Record how they confirmed (verify), or answer with the outcome denied (or partly) and the reason',
    respond: 'answer it (respond)',
  },
} as const;

/** Why the course refuses a step: the rule, and the line its reader (the command line's, by default) is shown. */
export interface CourseRefusal {
  rule: RefusalRule;
  message: string;
}

/** The §7101 record of the chart from a stored row: dates as ISO 8601 strings. */
export function courseRecordOf(record: PrivacyRecordRow): PrivacyCourseRecord {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    requestTypes: record.requestTypes,
    receivedAt: record.receivedAt.toISOString(),
    dueAt: record.dueAt.toISOString(),
    verifiedAt: iso(record.verifiedAt),
    verifiedBy: record.verifiedBy,
    extendedAt: iso(record.extendedAt),
    extensionReason: record.extensionReason,
    respondedAt: iso(record.respondedAt),
    outcome: record.outcome,
    outcomeReason: record.outcomeReason,
    respondedBy: record.respondedBy,
  };
}

/**
 * The chart's snapshot of a stored privacy request at `now` (the chart's `privacyCourseAt`, which the
 * console asks too). Pure: reads nothing, throws nothing.
 */
export function privacyCourseOf(record: PrivacyRecordRow, now: Date): PrivacyCourse {
  return privacyCourseAt(courseRecordOf(record), now);
}

/**
 * A response's own fault, before any request is read: a denial or a partial answer without its basis
 * (the chart's `statesBasis`; the command line exits 2 on it, as for any bad argument), in `reader`'s words:
 * the command line's names its flag (`--reason`), the API's its field (`reason`).
 */
export function unfoundedResponse(answer: { outcome: PrivacyOutcome; reason?: string | undefined }, reader: Reader = 'cli'): CourseRefusal | undefined {
  if (statesBasis(answer)) return undefined;
  return { rule: 'noBasis', message: `${INSTEAD[reader].basis(answer.outcome)}: the requester is told why (11 CCR §7022, §7024)` };
}

/**
 * Whether the course of request `id` takes `event` from `course`, and if not, why: `undefined` when the
 * chart takes it (`snapshot.can`), else the rule that refused it and the line `reader` is shown (the
 * command line's by default: `request <id> …`; exit 1, except `verifiedAlready`, which it prints as a success, and `noBasis` and
 * `noReason`, exit 2). The reasons are read off the chart's state and its record, in the order the
 * command line has always named them. Pure.
 */
export function refusalOf(id: string, course: PrivacyCourse, event: PrivacyCourseEvent, reader: Reader = 'cli'): CourseRefusal | undefined {
  if (course.can(event)) return undefined;
  const record = course.context;
  const answered = course.matches('responded');
  const pastDue = course.matches({ received: { deadline: 'overdue' } });
  const dueDay = record.dueAt.slice(0, 10);
  const onAnswer = `on ${record.respondedAt} (${record.outcome ?? 'no outcome'})`;
  const refuse = (rule: RefusalRule, message: string): CourseRefusal => ({ rule, message });
  switch (event.type) {
    case 'respond':
      if (answered) return refuse('answered', `request ${id} was already answered ${onAnswer}`);
      if (event.attachSubject && !course.matches({ received: { identity: 'verified' } })) {
        return refuse('dataOfUnverified', `request ${id} is not verified: its requester's data is not sent before they confirm it is them (11 CCR §7060)`);
      }
      if (event.outcome === 'complied' && course.matches({ received: { identity: 'unverified' } })) {
        return refuse(
          'notVerified',
          `request ${id} is not verified: a request to know, delete, correct or port is not carried out before its requester confirms it is them (11 CCR §7060). ${INSTEAD[reader].confirmOrDeny(id)}`,
        );
      }
      return unfoundedResponse(event, reader) ?? refuse('notNow', `request ${id} cannot be answered now`);
    case 'verify':
      if (answered) return refuse('answered', `request ${id} was already answered ${onAnswer}: there is nothing left to verify it for`);
      if (pastDue) return refuse('pastDue', `request ${id} was due on ${dueDay}: verify records an identity check before the due date; ${INSTEAD[reader].respond}`);
      if (record.verifiedAt) return refuse('verifiedAlready', `request ${id} was already verified on ${record.verifiedAt}`);
      return refuse('notNow', `request ${id} cannot be verified now`);
    case 'extend':
      if (record.extendedAt) return refuse('extendedAlready', `request ${id} was already extended on ${record.extendedAt}: the regulations allow one extension`);
      if (answered) return refuse('answered', `request ${id} was already answered`);
      if (pastDue) return refuse('pastDue', `request ${id} was due on ${dueDay}: an extension must be noticed before then`);
      if (!event.reason.trim()) return refuse('noReason', `request ${id} is not extended without the reason its notice gives the requester (11 CCR §7021(b))`);
      return refuse('notNow', `request ${id} cannot be extended now`);
    case 'clock.due':
      return refuse('notNow', `request ${id} has no due date to pass now`);
  }
}
