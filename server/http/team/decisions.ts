import { Hono } from 'hono';
import { z } from 'zod';
import { calendarDate } from '../../db/calendarDate.ts';
import { REVIEW_STATES } from '#machines/inviteReviewMachine';
import { addCohort, listCohorts } from '../../db/cohorts.ts';
import { addNote, decideInvites, DecisionRefusedError } from '../../db/decisions.ts';
import { audit } from '../../db/team.ts';
import { inTeamTransaction } from '../../db/teamTransaction.ts';
import { TEAM_AUTH_BODY_MAX_BYTES, TEAM_COHORT_CAPACITY_MAX, TEAM_DECISION_BATCH_MAX } from '../../limits.ts';
import { problem, type ApiMiddleware } from '../middleware.ts';
import type { AppOptions } from '../options.ts';
import { memberName as by, inviteDecisionFields, requestId, requireCohortToAccept, shapeProblem, teamName, teamText } from './bodies.ts';
import type { TeamContext, TeamEnv } from './session.ts';

const decisionBody = inviteDecisionFields
  .extend({
    decision: z.enum(['accept', 'waitlist', 'decline', 'spam', 'reopen']),
    ids: z.array(requestId).min(1).max(TEAM_DECISION_BATCH_MAX),
    // each id's review state as the member saw it, keyed by the id in any case
    from: z.record(z.string().max(64), z.enum(REVIEW_STATES)),
  })
  .superRefine(requireCohortToAccept)
  .transform((body) => ({ ...body, from: new Map(Object.entries(body.from).map(([id, state]) => [id.toLowerCase(), state])) }))
  .superRefine((body, ctx) => {
    const unseen = body.ids.find((id) => !body.from.has(id));
    if (unseen !== undefined) ctx.addIssue({ code: 'custom', path: ['from', unseen], message: 'required: the review state the request was seen in' });
  });

const noteBody = z.object({ requestId: z.string(), text: teamText });

const cohortBody = z.object({
  name: teamName,
  startsOn: calendarDate,
  capacity: z.number().int().min(1).max(TEAM_COHORT_CAPACITY_MAX).nullable().optional(),
});

/**
 * The team's decisions in the console, behind a session (401) and the same-origin check (403), each one
 * transaction under the team's write lock (server/db/teamTransaction.ts), as the command line's. Paths
 * relative to `/api/team`; bodies are JSON of at most `TEAM_AUTH_BODY_MAX_BYTES` (415, 413, 400 otherwise):
 * - `POST /decisions` `{ decision: 'accept'|'waitlist'|'decline'|'spam'|'reopen', ids: uuid[] (1 to
 *   TEAM_DECISION_BATCH_MAX), from: { [id]: ReviewState } (required for each id: the state the member saw),
 *   cohort? (accept: required), reason? (decline: told to the applicant), note? }` → 200
 *   `{ decided: [{ id, from, to }] }`; 409 `{ error, refusals: string[], changed: ChangedMeanwhile[] }` when
 *   a request is no longer in the state it was seen in (`changed` names each: the state now, and who moved
 *   it and when, from its timeline), the review's chart (machines/inviteReviewMachine.ts) refuses any one
 *   request, the cohort is unknown or too full, or an id is unknown or a privacy request: then nothing
 *   changed, and no mail or event is written. The state is compared under the rows' locks, in the
 *   decision's transaction. The decider is the signed-in member.
 * - `POST /notes` `{ requestId, text }` → 201; 404 for an unknown request.
 * - `GET /cohorts` → 200 `{ cohorts: [{ id, name, startsOn, capacity, accepted }] }`;
 *   `POST /cohorts` `{ name, startsOn: 'YYYY-MM-DD', capacity?: number | null }` → 201 `{ cohort }`, its name
 *   trimmed and NFKC-normalised (server/db/decisions.ts `cohortNameOf`); 409 when one of that name exists, in
 *   any case.
 * Each decision, note and new cohort is written to the audit (member, action, request id), never its text.
 */
export function decisionRoutes(options: AppOptions, api: ApiMiddleware, team: TeamContext): Hono<TeamEnv> {
  const db = options.database.db;
  // per route, not `use('*')`: this sub-app is mounted at the team API's root, beside the sign-in ceremonies
  const signedIn = [team.sameOrigin, team.session] as const;
  const body = [...signedIn, api.jsonContentType, api.jsonBody(TEAM_AUTH_BODY_MAX_BYTES, 'team decision')] as const;
  return new Hono<TeamEnv>()
    .post('/decisions', ...body, async (c) => {
      const parsed = decisionBody.safeParse(c.var.body);
      if (!parsed.success) return problem(c, 400, `Bad decision: ${shapeProblem(parsed.error)}`);
      const member = c.var.member;
      const at = team.now();
      try {
        const decided = await inTeamTransaction(db, 'write', async (tx) => {
          const moved = await decideInvites(tx, { ...parsed.data, by: by(member), at, events: options.outbox?.events ?? false, reader: 'api' });
          for (const { id } of moved) await audit(tx, { at, memberId: member.id, action: 'decision', requestId: id, detail: parsed.data.decision });
          return moved;
        });
        options.outbox?.kick();
        return c.json({ decided }, 200);
      } catch (error) {
        if (error instanceof DecisionRefusedError) return c.json({ error: `Nothing changed: ${error.message}`, refusals: error.refusals, changed: error.changed }, 409);
        throw error;
      }
    })
    .post('/notes', ...body, async (c) => {
      const parsed = noteBody.safeParse(c.var.body);
      if (!parsed.success) return problem(c, 400, `Bad note: ${shapeProblem(parsed.error)}`);
      const known = requestId.safeParse(parsed.data.requestId);
      if (!known.success) return problem(c, 404, 'No such request');
      const id = known.data;
      const member = c.var.member;
      const at = team.now();
      const added = await inTeamTransaction(db, 'write', async (tx) => {
        if (!(await addNote(tx, { id, by: by(member), at, text: parsed.data.text }))) return false;
        await audit(tx, { at, memberId: member.id, action: 'note', requestId: id });
        return true;
      });
      return added ? c.body(null, 201) : problem(c, 404, 'No such request');
    })
    .get('/cohorts', ...signedIn, async (c) => c.json({ cohorts: await inTeamTransaction(db, 'read', (tx) => listCohorts(tx)) }, 200))
    .post('/cohorts', ...body, async (c) => {
      const parsed = cohortBody.safeParse(c.var.body);
      if (!parsed.success) return problem(c, 400, `Bad cohort: ${shapeProblem(parsed.error)}`);
      const { name, startsOn, capacity } = parsed.data;
      const member = c.var.member;
      const audited = { memberId: member.id, via: 'console', at: team.now() } as const;
      const cohort = await inTeamTransaction(db, 'write', (tx) => addCohort(tx, { name, startsOn, capacity: capacity ?? null, by: by(member), audit: audited }));
      return cohort ? c.json({ cohort }, 201) : problem(c, 409, `A cohort named "${name}" exists already`);
    });
}
