import { daysLeftOf } from '#shared/dueBand';
import { courseStateOf, needsVerification } from '#machines/privacyCourseMachine';
import { privacyCourseOf } from './privacyCourse.ts';
import type { RequestSummary } from '#shared/team';
import type { privacyRecords, submissions } from './schema.ts';

export type { RequestSummary };

export type Row = typeof submissions.$inferSelect;
export type PrivacyRecord = typeof privacyRecords.$inferSelect;

/**
 * Whether a privacy request's identity check is done, due, or not needed (only opt-out or other types):
 * the identity of the course's chart (machines/privacyCourseMachine.ts), `verified`, `unverified` or `notNeeded`.
 */
function verificationOf(record: PrivacyRecord): NonNullable<RequestSummary['verification']> {
  if (record.verifiedAt) return 'verified';
  return needsVerification(record.requestTypes) ? 'unverified' : 'not needed';
}

/**
 * A stored request as `list`, `show` and `export` show it, with its days left at `now`.
 * @param queue - what the queue's query adds (server/db/queue.ts): the cohort's name and the request it repeats
 */
export function summary(row: Row, now: Date, record?: PrivacyRecord | null, queue?: { cohort: string | null; duplicateOf: string | null }): RequestSummary {
  const status = row.handledAt ? 'done' : 'open';
  return {
    id: row.id,
    kind: row.kind,
    receivedAt: row.receivedAt.toISOString(),
    fullName: row.body.data.fullName,
    email: row.email,
    company: row.body.data.companyName,
    status,
    ...(row.reviewState ? { state: row.reviewState } : {}),
    ...(queue?.cohort ? { cohort: queue.cohort } : {}),
    ...(queue?.duplicateOf ? { duplicateOf: queue.duplicateOf } : {}),
    ...(row.dueAt ? { dueAt: row.dueAt.toISOString() } : {}),
    ...(row.dueAt && status === 'open' ? { daysLeft: daysLeftOf(row.dueAt, now) } : {}),
    ...(row.handledAt ? { handledAt: row.handledAt.toISOString(), handledBy: row.handledBy ?? '', note: row.handledNote ?? '' } : {}),
    ...(record ? { verification: verificationOf(record), course: courseStateOf(privacyCourseOf(record, now)) } : {}),
    ...(record?.outcome ? { outcome: record.outcome } : {}),
  };
}

/** The status column of `list`: an invite's review state (with its cohort), a privacy request's outcome or status; and the request it repeats. */
export function statusText(request: RequestSummary): string {
  const status = request.state ? `${request.state}${request.cohort ? ` (${request.cohort})` : ''}` : (request.outcome ?? request.status);
  return request.duplicateOf ? `${status}, repeats ${request.duplicateOf.slice(0, 8)}` : status;
}

/** The due column of `list`: the due date, and the days left or overdue. */
export function dueText(request: RequestSummary): string {
  if (!request.dueAt) return '';
  const due = request.dueAt.slice(0, 10);
  if (request.daysLeft === undefined) return `due ${due}`;
  if (request.daysLeft < 0) return `OVERDUE since ${due} (${-request.daysLeft} d)`;
  return `due ${due} (${request.daysLeft} d left)`;
}
