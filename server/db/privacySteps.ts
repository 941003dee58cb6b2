import { and, desc, eq } from 'drizzle-orm';
import { courseStateOf, type CourseState } from '#machines/privacyCourseMachine';
import type { ChangedMeanwhile } from '#shared/team';
import type { Db } from './database.ts';
import { changedText } from './decisions.ts';
import { extendDueDate, lockPrivacyRecord, recordResponse, recordVerifiedByTeam } from './privacyAnswers.ts';
import { privacyCourseOf, refusalOf, unfoundedResponse, type Reader, type RefusalRule } from './privacyCourse.ts';
import { teamAudit, teamMembers, type PrivacyOutcome } from './schema.ts';
import { lockRequest } from './submissions.ts';
import type { PrivacyRecord, Row } from './summary.ts';

// The team's three steps on a privacy request (11 CCR §7021(b), §7060, §7022, §7024), as the command line
// (server/cli/privacyAnswers.ts) and the console (server/http/team/privacy.ts) both take them: the request
// and its record locked, the course's chart asked (server/db/privacyCourse.ts), then the one statement of
// server/db/privacyAnswers.ts. Call it inside the team's write transaction (server/db/teamTransaction.ts).

/** A request id: a UUID (anything else is no request, without asking the database). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One step of the team on a privacy request. */
export type PrivacyStep =
  /** the requester confirmed it is them (§7060), recorded by the team */
  | { type: 'verify' }
  /** the one extension (§7021(b)), with the reason its notice gives */
  | { type: 'extend'; reason: string }
  /** the response (§7022, §7024): `reason` is the basis of a denial or a partial answer; `by`: who answers; `events`: write the signed event */
  | { type: 'respond'; outcome: PrivacyOutcome; reason?: string; attachSubject: boolean; by: string; events: boolean };

/**
 * Why a step was not taken: the request, the chart's rule, a step taken meanwhile, or a course no longer
 * in the state the step was taken from (`changed`).
 */
export type PrivacyStepProblem = 'unknown' | 'invite' | 'noRecord' | 'meanwhile' | 'changed' | RefusalRule;

/**
 * A step not taken, nothing written: `message` is the line the command line prints, `badArgument` whether
 * it exits 2 on it (an invite request's id, a response without its basis, an extension without its reason)
 * rather than 1.
 */
export class PrivacyStepError extends Error {
  override name = 'PrivacyStepError';
  constructor(
    readonly problem: PrivacyStepProblem,
    message: string,
    /** `changed`: the state seen, the state now, and the step that put it there */
    readonly changed?: ChangedMeanwhile,
  ) {
    super(message);
  }

  get badArgument(): boolean {
    return this.problem === 'invite' || this.problem === 'noBasis' || this.problem === 'noReason';
  }
}

/** A step taken, or found taken already (a `verify` of a verified request). */
export interface PrivacyStepTaken {
  /** false: nothing to write, it was so already; `message` says since when */
  changed: boolean;
  /** when nothing changed: the line the command line prints as its success */
  message?: string;
  /** `extend`: the new due date */
  dueAt?: Date;
}

/**
 * Anything written like an email address, looked for in the NFKC form of a text (so a full-width `＠`
 * or a small `﹫` is an `@`), with or without spaces around the `@` (`ada @ example.com`), and a domain
 * with a dot after it, so that "denied under §7062 @ 5pm" is a reason, not an address.
 */
const EMAIL_LIKE = /[^\s@]+\s*@\s*[^\s@]+\.[^\s@.]+/u;

/**
 * Why a reason may not be kept in the record of 11 CCR §7101, which outlives `erase`: it holds an email
 * address ({@link EMAIL_LIKE}), so it would name the person. Checks nothing else (the one-line text rule
 * of shared/text.ts is the caller's).
 * @returns the problem in words, or undefined when the reason may be kept
 */
export function recordReasonProblem(text: string): string | undefined {
  return EMAIL_LIKE.test(text.normalize('NFKC')) ? 'the reason is kept after the request is erased: leave out any email address.' : undefined;
}

/** A privacy request and its record, both locked until the transaction commits. */
async function lockPrivacy(db: Db, id: string): Promise<{ row: Row; record: PrivacyRecord }> {
  const row = UUID.test(id) ? await lockRequest(db, id) : undefined;
  if (!row) throw new PrivacyStepError('unknown', `no request ${id}`);
  if (row.kind !== 'privacy') throw new PrivacyStepError('invite', `request ${id} is an invite request: mark it handled with done`);
  const record = await lockPrivacyRecord(db, id);
  if (!record) throw new PrivacyStepError('noRecord', `request ${id} has no privacy record`);
  return { row, record };
}

/**
 * Who took a step recorded on privacy request `id`: the member the team's audit names for the console's
 * step (name, else email); for a step of the command line, which the audit does not keep, "the team".
 */
async function stepTakenBy(db: Db, id: string, step: 'verify' | 'extend'): Promise<string> {
  const [row] = await db
    .select({ name: teamMembers.name, email: teamMembers.email })
    .from(teamAudit)
    .innerJoin(teamMembers, eq(teamMembers.id, teamAudit.memberId))
    .where(and(eq(teamAudit.requestId, id), eq(teamAudit.action, 'decision'), eq(teamAudit.detail, step)))
    .orderBy(desc(teamAudit.at))
    .limit(1);
  return row ? (row.name ?? row.email) : 'the team';
}

/**
 * The latest step in a privacy request's record of 11 CCR §7101, with who took it and when: what moved
 * its course from the state a member saw to the state it is in.
 */
async function lastStep(db: Db, id: string, record: PrivacyRecord): Promise<Pick<ChangedMeanwhile, 'action' | 'by' | 'at'>> {
  if (record.respondedAt) return { action: 'responded', by: record.respondedBy ?? 'the team', at: record.respondedAt.toISOString() };
  const extended = record.extendedAt?.getTime() ?? -Infinity;
  const verified = record.verifiedAt?.getTime() ?? -Infinity;
  if (record.extendedAt && extended >= verified) return { action: 'extended', by: await stepTakenBy(db, id, 'extend'), at: record.extendedAt.toISOString() };
  if (record.verifiedAt) {
    const by = record.verifiedBy === 'link' ? 'the requester, by the verification link,' : await stepTakenBy(db, id, 'verify');
    return { action: 'verified', by, at: record.verifiedAt.toISOString() };
  }
  return { action: null, by: null, at: null };
}

/**
 * Takes one step on privacy request `id` at `now`, if the course's chart takes it from the stored record:
 * `respond` and `extend` write the record of 11 CCR §7101 and the requester's mail into the outbox in one
 * statement (the running server sends it); `verify` records the team's identity check. With `from`, the
 * course state the member saw (or an earlier `list` printed), the step is taken only if the course is
 * still in it, compared under the record's lock. Whatever refused it, nothing is written. A refusal's
 * message is in `reader`'s words (server/db/privacyCourse.ts `Reader`): the command line's commands and
 * flags, or the team's API's fields and steps.
 * @returns what was done; a `verify` of a request verified already (or meanwhile) is no error without
 *   `from`: `changed` false
 * @throws {@link PrivacyStepError}: no such request (or not a UUID), an invite request, no record, a
 *   course no longer in `from` (`changed`, with who moved it and when), the chart's refusal (`problem`
 *   its rule, `message` its words), or the same step taken meanwhile
 */
export async function takePrivacyStep(
  db: Db,
  id: string,
  step: PrivacyStep,
  now: Date,
  from?: CourseState,
  reader: Reader = 'cli',
): Promise<PrivacyStepTaken> {
  // what the team does to see the step taken meanwhile
  const see = reader === 'cli' ? `see show ${id}` : 'reload the request';
  if (step.type === 'respond') {
    const unfounded = unfoundedResponse(step, reader);
    if (unfounded) throw new PrivacyStepError(unfounded.rule, unfounded.message);
  }
  const { record } = await lockPrivacy(db, id);
  const course = privacyCourseOf(record, now);
  const state = courseStateOf(course);
  if (from !== undefined && from !== state) {
    const change: ChangedMeanwhile = { id, seen: from, state, ...(await lastStep(db, id, record)) };
    throw new PrivacyStepError('changed', changedText(change), change);
  }
  const at = now.toISOString();
  switch (step.type) {
    case 'verify': {
      // An identity check is a step before the response, within the time the law gives (§7021(b)).
      const refusal = refusalOf(id, course, { type: 'verify', by: 'team', at }, reader);
      if (refusal?.rule === 'verifiedAlready') return { changed: false, message: refusal.message };
      if (refusal) throw new PrivacyStepError(refusal.rule, refusal.message);
      // One statement: the record, and the links of its confirmation, which now say it is already confirmed.
      if (!(await recordVerifiedByTeam(db, id, now))) return { changed: false, message: `request ${id} was verified meanwhile: ${see}` };
      return { changed: true };
    }
    case 'extend': {
      const refusal = refusalOf(id, course, { type: 'extend', reason: step.reason, at }, reader);
      if (refusal) throw new PrivacyStepError(refusal.rule, refusal.message);
      const dueAt = await extendDueDate(db, id, { at: now, reason: step.reason });
      if (!dueAt) throw new PrivacyStepError('meanwhile', `request ${id} was extended or answered meanwhile: ${see}`);
      return { changed: true, dueAt };
    }
    case 'respond': {
      // What the confirmation promised: nothing is done on an unconfirmed request to know, delete, correct
      // or port (the chart's `unverified`). Denied (unverifiable, §7062) or partly stay open.
      const event = { type: 'respond', outcome: step.outcome, reason: step.reason, attachSubject: step.attachSubject, by: step.by, at } as const;
      const refusal = refusalOf(id, course, event, reader);
      if (refusal) throw new PrivacyStepError(refusal.rule, refusal.message);
      // One statement: the record, the request marked handled, and the outcome mail in the outbox.
      const answered = await recordResponse(db, id, {
        at: now,
        outcome: step.outcome,
        ...(step.reason ? { reason: step.reason } : {}),
        by: step.by,
        attachSubject: step.attachSubject,
        events: step.events,
      });
      // another respond may have answered it between the look-up and this statement
      if (!answered) throw new PrivacyStepError('meanwhile', `request ${id} was answered meanwhile: ${see}`);
      return { changed: true };
    }
  }
}
