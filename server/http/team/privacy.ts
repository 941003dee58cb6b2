import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { COURSE_STATES, type CourseState } from '#machines/privacyCourseMachine';
import { findQueueEntry } from '../../db/queue.ts';
import { PrivacyStepError, takePrivacyStep, type PrivacyStep } from '../../db/privacySteps.ts';
import { summary } from '../../db/summary.ts';
import { audit } from '../../db/team.ts';
import { inTeamTransaction } from '../../db/teamTransaction.ts';
import { TEAM_AUTH_BODY_MAX_BYTES } from '../../limits.ts';
import { problem, type ApiMiddleware } from '../middleware.ts';
import type { AppOptions } from '../options.ts';
import { memberName, privacyStepFields, requireBasisToRespond, shapeProblem } from './bodies.ts';
import type { TeamContext, TeamEnv } from './session.ts';

/** A request's id as the database prints it (RFC 9562 §4); one that is no UUID is no request (404). */
const id = z.string().transform((value) => value.toLowerCase());
/** The course state the member saw (machines/privacyCourseMachine.ts `courseStateOf`): the step is taken only if it still is. */
const from = z.enum(COURSE_STATES);
const verifyBody = z.object({ id, from });
const extendBody = privacyStepFields.extend.extend({ id, from });
const respondBody = privacyStepFields.respond.extend({ id, from }).superRefine(requireBasisToRespond);

/**
 * The team's steps on a privacy request in the console, behind the same-origin check (403) and a session
 * (401): the command line's `verify`, `extend` and `respond` (server/cli/privacyAnswers.ts), through the
 * same chart and statements (server/db/privacySteps.ts `takePrivacyStep`), each one transaction under the
 * team's write lock. Paths relative to `/api/team`; bodies are JSON of at most `TEAM_AUTH_BODY_MAX_BYTES`
 * (415, 413, 400 otherwise):
 * - `POST /privacy/verify` `{ id, from }`: the requester confirmed it is them (11 CCR §7060).
 * - `POST /privacy/extend` `{ id, from, reason }`: the one extension (§7021(b)); its notice goes into the outbox.
 * - `POST /privacy/respond` `{ id, from, outcome: 'complied'|'denied'|'partly', reason?, attachSubject?: boolean }`:
 *   the response (§7022, §7024), by the signed-in member (name, else email); its mail goes into the outbox.
 *
 * `from` (required) is the course state the member saw (shared/team.ts `CourseState`): the step is taken
 * only if the request is still in it, compared under the record's lock in the step's transaction; else
 * 409 `{ error, changed: [ChangedMeanwhile] }` names the state now and the step that put it there, who and
 * when, and nothing is written (no mail, no event). Each answers 200 `{ request: RequestSummary }`
 * (server/db/summary.ts) as it is after the step; 409 `{ error }` with the chart's refusal in the API's
 * words (fields and steps, not the command line's flags) (answered already, past due, extended already,
 * not verified, the data of an unverified requester, or taken meanwhile); 400 `{ error }` for a body
 * out of shape, a reason with an email address, a denial or partial answer without its basis, or an
 * extension without its reason; 404 `{ error: 'No such request' }` for an id unknown, not a UUID, or an
 * invite request's. A step taken is written to the audit (member, `decision`, the request id, the step's
 * name), never its reason; the outbox is woken after.
 */
export function privacyRoutes(options: AppOptions, api: ApiMiddleware, team: TeamContext): Hono<TeamEnv> {
  const db = options.database.db;
  const body = [api.jsonContentType, api.jsonBody(TEAM_AUTH_BODY_MAX_BYTES, 'team decision')] as const;

  /** Takes the step as the signed-in member and answers with the request as it is now. */
  const take = async (c: Context<TeamEnv>, id: string, from: CourseState, step: PrivacyStep) => {
    const member = c.var.member;
    const at = team.now();
    try {
      const request = await inTeamTransaction(db, 'write', async (tx) => {
        const taken = await takePrivacyStep(tx, id, step, at, from, 'api');
        if (taken.changed) await audit(tx, { at, memberId: member.id, action: 'decision', requestId: id, detail: step.type });
        const entry = (await findQueueEntry(tx, id))!;
        return summary(entry.submissions, at, entry.privacy_records, entry);
      });
      options.outbox?.kick();
      return c.json({ request }, 200);
    } catch (error) {
      if (!(error instanceof PrivacyStepError)) throw error;
      if (error.problem === 'unknown' || error.problem === 'invite' || error.problem === 'noRecord') return problem(c, 404, 'No such request');
      if (error.changed) return c.json({ error: error.message, changed: [error.changed] }, 409);
      return problem(c, error.badArgument ? 400 : 409, error.message);
    }
  };

  return new Hono<TeamEnv>()
    .use('*', team.sameOrigin, team.session)
    .post('/verify', ...body, async (c) => {
      const parsed = verifyBody.safeParse(c.var.body);
      if (!parsed.success) return problem(c, 400, `Bad step: ${shapeProblem(parsed.error)}`);
      return take(c, parsed.data.id, parsed.data.from, { type: 'verify' });
    })
    .post('/extend', ...body, async (c) => {
      const parsed = extendBody.safeParse(c.var.body);
      if (!parsed.success) return problem(c, 400, `Bad step: ${shapeProblem(parsed.error)}`);
      return take(c, parsed.data.id, parsed.data.from, { type: 'extend', reason: parsed.data.reason });
    })
    .post('/respond', ...body, async (c) => {
      const parsed = respondBody.safeParse(c.var.body);
      if (!parsed.success) return problem(c, 400, `Bad step: ${shapeProblem(parsed.error)}`);
      const { id, from, outcome, reason, attachSubject } = parsed.data;
      return take(c, id, from, {
        type: 'respond',
        outcome,
        ...(reason ? { reason } : {}),
        attachSubject: attachSubject ?? false,
        by: memberName(c.var.member),
        events: options.outbox?.events ?? false,
      });
    });
}
