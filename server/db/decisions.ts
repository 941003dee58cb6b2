import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ChangedMeanwhile } from '#shared/team';
import { DECIDED_STATE, inviteReviewMachine, reviewAt, type InviteDecision, type InviteReviewEvent } from '#machines/inviteReviewMachine';
import { rowsOf, type Db } from './database.ts';
import type { Reader } from './privacyCourse.ts';
import { type CohortView, namedCohort } from './cohorts.ts';
import { cohorts, deliveries, submissions, timeline, type DecisionEvent, type MailMessage, type ReviewState, type TimelineAction } from './schema.ts';

/** What one decision on a batch of invite requests needs. */
export interface InviteDecisionInput {
  decision: InviteDecision;
  /** the requests, as typed, in any case (duplicates are taken once) */
  ids: string[];
  /** who decides: the team member, or for the command line the operating-system user (or `--by`) */
  by: string;
  at: Date;
  /** `accept`: the cohort's name */
  cohort?: string;
  /** `decline`: the team's reason, told to the applicant; null or absent: none given */
  reason?: string | null;
  /** the team's own remark on the decision, kept in the timeline as a note (never mailed) */
  note?: string | null;
  /** write the signed decision event too (`SONDE_EVENTS_WEBHOOK_URL` is set) */
  events: boolean;
  /** whose words a refusal is in: the command line's commands (the default), or the team's API's */
  reader?: Reader;
  /**
   * the review state each request was seen in (by its id in lower case), when the decision was made on
   * what a screen or an earlier `list` showed: a request no longer in it refuses the batch; absent, the
   * decision is made on the state read under the lock
   */
  from?: ReadonlyMap<string, ReviewState>;
}

/** What a refusal tells its reader to do instead: the command line names its commands. */
const INSTEAD: Record<Reader, { addCohort: string; respond: string }> = {
  cli: { addCohort: 'create it with cohort add', respond: 'answer it with respond' },
  api: { addCohort: 'create it first', respond: 'answer it with its privacy steps' },
};

/**
 * An acceptance into a cohort that does not exist, in `reader`'s words (`decideInvites`, and the console's preview).
 * @param name - the cohort as the team named it
 */
export const noCohort = (name: string | undefined, reader: Reader = 'cli'): string => `no cohort "${name}": ${INSTEAD[reader].addCohort}`;

/** One request a decision moved. */
export interface Decided {
  id: string;
  from: ReviewState;
  to: ReviewState;
}

/**
 * A decision refused as a whole: nothing was written. `refusals` says, per request (or for the cohort),
 * why; `changed` names each request that was no longer in the state it was seen in, with what changed it.
 */
export class DecisionRefusedError extends Error {
  override name = 'DecisionRefusedError';
  constructor(
    readonly refusals: string[],
    readonly changed: ChangedMeanwhile[] = [],
  ) {
    super(refusals.join('; '));
  }
}

/**
 * The line that names a request changed since it was seen: `request <id> is declined, not received as
 * seen: declined by Kim at 2026-11-28T14:02:00.000Z`.
 */
export function changedText(change: ChangedMeanwhile): string {
  const what = change.action && change.by && change.at ? `: ${change.action} by ${change.by} at ${change.at}` : '';
  return `request ${change.id} is ${change.state}, not ${change.seen} as seen${what}`;
}

/**
 * What last moved each of `ids` from one review state to another: the latest decision in its timeline
 * (action, who, when), by id; a request never decided has none.
 */
async function lastDecisions(db: Db, ids: string[]): Promise<Map<string, { action: string; by: string; at: string }>> {
  const rows = await db
    .selectDistinctOn([timeline.submissionId], { id: timeline.submissionId, action: timeline.action, by: timeline.actor, at: timeline.at })
    .from(timeline)
    .where(and(inArray(timeline.submissionId, ids), isNotNull(timeline.toState)))
    .orderBy(timeline.submissionId, desc(timeline.at));
  return new Map(rows.map((row) => [row.id, { action: row.action, by: row.by, at: row.at.toISOString() }]));
}

/** What each decision writes: the timeline's action, the applicant's mail, and the event for machines. */
const EFFECTS: Record<InviteDecision, { action: TimelineAction; mail: MailMessage | null; event: DecisionEvent | null }> = {
  accept: { action: 'accepted', mail: 'invite-accepted', event: 'invite.accepted' },
  waitlist: { action: 'waitlisted', mail: 'invite-waitlisted', event: 'invite.waitlisted' },
  decline: { action: 'declined', mail: 'invite-declined', event: 'invite.declined' },
  spam: { action: 'spam', mail: null, event: null },
  reopen: { action: 'reopened', mail: null, event: null },
};

/**
 * The mail a decision writes to the applicant, with the facts it states (`deliveries.payload`, rendered
 * at send time by server/outbox/mail.ts `composeMail`): an acceptance's cohort and its start, a decline's
 * reason (null: none given); none for spam or reopen.
 * @param facts - `cohort`: the cohort accepted into (required for `accept`); `reason`: the decline's
 */
export function decisionMailOf(
  decision: InviteDecision,
  facts: { cohort?: Pick<CohortView, 'name' | 'startsOn'>; reason?: string | null },
): { message: MailMessage; payload: Record<string, unknown> | null } | null {
  const message = EFFECTS[decision].mail;
  if (message === null) return null;
  const payload = decision === 'accept' ? { cohort: facts.cohort!.name, startsOn: facts.cohort!.startsOn } : decision === 'decline' ? { reason: facts.reason ?? null } : null;
  return { message, payload };
}

/** The machine event a decision is, with the facts its guards read. */
function eventOf(input: InviteDecisionInput, cohort: CohortView | undefined, seatsTaken: number): InviteReviewEvent {
  switch (input.decision) {
    case 'accept':
      return { type: 'review.accept', cohort: { name: cohort!.name, startsOn: cohort!.startsOn, capacity: cohort!.capacity, accepted: seatsTaken } };
    case 'decline':
      return { type: 'review.decline', reason: input.reason ?? null };
    default:
      return { type: `review.${input.decision}` };
  }
}

/** The review's states from which `event` is possible at all (guards aside), read from the chart. */
function statesTaking(event: InviteReviewEvent['type']): string[] {
  return Object.entries(inviteReviewMachine.root.states)
    .filter(([, node]) => event in node.on)
    .map(([name]) => name);
}

/**
 * Why the chart refuses `event` for a request in `state`, in the team's words; null when it allows it.
 * The rules are the chart's (machines/inviteReviewMachine.ts): this only asks it, with XState's pure
 * `resolveState` and `can`.
 */
export function reviewRefusal(id: string, state: ReviewState, event: InviteReviewEvent): string | null {
  if (reviewAt(state).can(event)) return null;
  const from = statesTaking(event.type);
  if (event.type === 'review.accept' && from.includes(state)) {
    return `cohort "${event.cohort.name}" is full (${event.cohort.capacity} of ${event.cohort.capacity}): request ${id} would not fit`;
  }
  const decision = event.type.slice('review.'.length);
  return `request ${id} is ${state}: ${decision} is possible only when it is ${from.join(' or ')}`;
}

/**
 * One decision on one or more invite requests (spec §2's review), all or nothing. Each request is
 * locked, then compared with the state it was seen in (`input.from`, when given), then the chart is asked
 * whether it can take the decision from its stored state; an
 * acceptance counts its cohort's seats, the batch's own included. Any refusal refuses the whole batch
 * and writes nothing. Otherwise one statement writes everything the decision causes: the new state
 * (and cohort), the request marked decided (or open again when reopened) with the team's word on it
 * (`handled_note`: the note, else the reason), a timeline entry per request with who, when and why (and
 * the note, when given), the applicant's mail (none for spam or reopen) in place of an earlier decision's
 * mail still waiting, and, with `events`, the signed event for machines (server/outbox/), so a decision is never recorded without its mail, nor
 * mailed without its record. Call it inside the team's write transaction (server/db/teamTransaction.ts).
 * @returns the requests moved, in the order given
 * @throws {@link DecisionRefusedError} naming each request the chart refuses, a request no longer in the
 *   state `input.from` says it was seen in (with `changed`), an unknown request or a privacy request, an
 *   unknown cohort, or a cohort too full for the batch
 */
export async function decideInvites(db: Db, input: InviteDecisionInput): Promise<Decided[]> {
  // as PostgreSQL prints them (RFC 9562 §4: case-insensitive on input), so each compares with its row
  const ids = [...new Set(input.ids.map((id) => id.toLowerCase()))];
  const rows = await db
    .select({ id: submissions.id, kind: submissions.kind, reviewState: submissions.reviewState })
    .from(submissions)
    .where(inArray(submissions.id, ids))
    .orderBy(asc(submissions.id))
    .for('update');
  const byId = new Map(rows.map((row) => [row.id, row]));
  let cohort: CohortView | undefined;
  if (input.decision === 'accept') {
    const [locked] = await db.select().from(cohorts).where(namedCohort(input.cohort ?? '')).for('update');
    if (!locked) throw new DecisionRefusedError([noCohort(input.cohort, input.reader)]);
    const [{ accepted } = { accepted: 0 }] = await db.select({ accepted: sql<number>`count(*)::int` }).from(submissions).where(eq(submissions.cohortId, locked.id));
    cohort = { id: locked.id, name: locked.name, startsOn: locked.startsOn, capacity: locked.capacity, accepted };
  }

  const refusals: string[] = [];
  const decided: Decided[] = [];
  // read under the rows' locks: a request another member (or command) decided since it was seen is
  // refused with what changed it, so that a decision made on a stale screen never lands on a newer one
  const stale = rows.filter((row) => row.reviewState && input.from?.has(row.id) && input.from.get(row.id) !== row.reviewState);
  const changed = stale.length > 0 ? await lastDecisions(db, stale.map((row) => row.id)) : new Map<string, { action: string; by: string; at: string }>();
  const changes: ChangedMeanwhile[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    const seen = input.from?.get(id);
    if (!row) refusals.push(`no request ${id}`);
    else if (row.kind !== 'invite' || !row.reviewState) refusals.push(`request ${id} is a privacy request: ${INSTEAD[input.reader ?? 'cli'].respond} (the record and the mail the law asks for)`);
    else if (seen !== undefined && seen !== row.reviewState) {
      const last = changed.get(id);
      const change = { id, seen, state: row.reviewState, action: last?.action ?? null, by: last?.by ?? null, at: last?.at ?? null };
      changes.push(change);
      refusals.push(changedText(change));
    } else {
      const refusal = reviewRefusal(id, row.reviewState, eventOf(input, cohort, (cohort?.accepted ?? 0) + decided.length));
      if (refusal) refusals.push(refusal);
      else decided.push({ id, from: row.reviewState, to: DECIDED_STATE[input.decision] });
    }
  }
  if (refusals.length > 0) throw new DecisionRefusedError(refusals, changes);

  const { action, event } = EFFECTS[input.decision];
  const to = DECIDED_STATE[input.decision];
  const at = input.at.toISOString();
  const reason = input.reason ?? null;
  const note = input.note ?? null;
  const decisionMail = decisionMailOf(input.decision, { ...(cohort ? { cohort } : {}), reason });
  const mail = decisionMail?.message ?? null;
  const mailPayload = decisionMail?.payload ?? null;
  const writeEvent = input.events && event !== null;
  const result = await db.execute(sql`
    with d as (
      select * from jsonb_to_recordset(${JSON.stringify(decided.map((d) => ({ id: d.id, from_state: d.from })))}::jsonb) as d(id uuid, from_state text)
    ),
    moved as (
      update ${submissions} s set review_state = ${to}, cohort_id = ${cohort?.id ?? null}::uuid,
        handled_at = ${to === 'received' ? null : at}::timestamptz,
        handled_by = ${to === 'received' ? null : input.by}, handled_note = ${to === 'received' ? null : (note ?? reason)}
      from d where s.id = d.id
      returning s.id, s.body, d.from_state
    ),
    superseded as (
      -- the applicant hears only the latest decision: an earlier decision's mail not yet sent (and not
      -- being sent) goes; the timeline keeps the decision, and its signed event still goes out
      delete from ${deliveries} w using moved
      where w.submission_id = moved.id and w.channel = 'mail' and w.message in ('invite-accepted', 'invite-waitlisted', 'invite-declined')
        and w.delivered_at is null and w.failed_at is null and (w.locked_until is null or w.locked_until < now())
    ),
    entries as (
      insert into ${timeline} (submission_id, at, action, from_state, to_state, actor, reason, cohort_id)
      select id, ${at}::timestamptz, ${action}, from_state, ${to}, ${input.by}, ${reason}, ${cohort?.id ?? null}::uuid from moved
      union all
      select id, ${at}::timestamptz, 'note', null, null, ${input.by}, ${note}, null from moved where ${note !== null}
    ),
    mails as (
      insert into ${deliveries} (submission_id, channel, message, payload)
      select id, 'mail', ${mail}, ${mailPayload === null ? null : JSON.stringify(mailPayload)}::jsonb from moved where ${mail !== null}
    ),
    events as (
      insert into ${deliveries} (submission_id, channel, event, created_at, payload)
      select id, 'event', ${event}, ${at}::timestamptz, jsonb_strip_nulls(jsonb_build_object(
        'requestId', id, 'workEmail', lower(body->'data'->>'workEmail'), 'company', body->'data'->>'companyName',
        'cohort', ${cohort ? JSON.stringify({ name: cohort.name, startsOn: cohort.startsOn }) : null}::jsonb,
        'decidedAt', ${at}::text))
      from moved where ${writeEvent}
    )
    select id from moved`);
  if (rowsOf(result).length !== decided.length) throw new Error('a decided request changed under its lock');
  return decided;
}

/**
 * The team's note on a request, kept in its timeline with who and when (`requests note <id> "…"`).
 * @returns false when there is no such request
 */
export async function addNote(db: Db, note: { id: string; by: string; at: Date; text: string }): Promise<boolean> {
  const [row] = await db.select({ id: submissions.id }).from(submissions).where(eq(submissions.id, note.id));
  if (!row) return false;
  await db.insert(timeline).values({ submissionId: note.id, at: note.at, action: 'note', actor: note.by, reason: note.text });
  return true;
}
