import { Hono } from 'hono';
import { z } from 'zod';
import { PRIVACY_EMAIL } from '#shared/policy';
import { cohortNameOf, listCohorts } from '../../db/cohorts.ts';
import { noCohort } from '../../db/decisions.ts';
import { findQueueEntries } from '../../db/queue.ts';
import { inTeamTransaction } from '../../db/teamTransaction.ts';
import { TEAM_AUTH_BODY_MAX_BYTES, TEAM_DECISION_BATCH_MAX } from '../../limits.ts';
import { previewMails } from '../../outbox/preview.ts';
import { problem, type ApiMiddleware } from '../middleware.ts';
import type { AppOptions } from '../options.ts';
import { inviteDecisionFields, privacyStepFields, requestId, requireBasisToRespond, requireCohortToAccept, shapeProblem } from './bodies.ts';
import type { TeamContext, TeamEnv } from './session.ts';

const PRIVACY_STEPS = new Set(['verify', 'extend', 'respond']);

const ids = z.array(requestId).min(1).max(TEAM_DECISION_BATCH_MAX);

/**
 * The body of each decision as its own route takes it (./decisions.ts, ./privacy.ts), with `ids` for the
 * requests: the fields' schemas are the routes' own (./bodies.ts), so what the step refuses, its preview
 * refuses. The facts the mail states are required as the step requires them: without them there is no mail to show.
 */
const previewBody = z
  .discriminatedUnion('decision', [
    inviteDecisionFields.extend({ decision: z.enum(['accept', 'waitlist', 'decline', 'spam', 'reopen']), ids }),
    z.object({ decision: z.literal('verify'), ids }),
    privacyStepFields.extend.extend({ decision: z.literal('extend'), ids }),
    privacyStepFields.respond.extend({ decision: z.literal('respond'), ids }),
  ])
  .superRefine((body, ctx) => {
    if (body.decision === 'respond') requireBasisToRespond(body, ctx);
    else if (body.decision !== 'verify' && body.decision !== 'extend') requireCohortToAccept(body, ctx);
  });

/**
 * What a decision would mail, before it is confirmed, behind the same-origin check (403) and a session
 * (401). Path relative to `/api/team`:
 * - `POST /preview` `{ decision: 'accept'|'waitlist'|'decline'|'spam'|'reopen'|'verify'|'extend'|'respond',
 *   ids: uuid[] (1 to TEAM_DECISION_BATCH_MAX), cohort? (accept: required), reason? (decline, respond;
 *   extend: required), outcome? (respond: required), attachSubject? }` → 200 `{ mails: [{ id, to, subject,
 *   text }] }`: the mail the decision would write to each request's requester, in the order of `ids`,
 *   rendered by the outbox's own composition and templates (server/outbox/preview.ts `previewMails`);
 *   `mails: []` for spam, reopen and verify. The body is checked by the step's own field schemas
 *   (./bodies.ts: a reason kept in the §7101 record without an email address, a denial or partial answer
 *   with its basis), so a body the step refuses is refused here too. Nothing is stored, nothing audited, no
 *   chart asked: a decision the chart would refuse for the request's state is previewed all the same.
 *   400 `{ error }` for a body out of shape; 404 `{ error: 'No such request' }` when an id is unknown, or
 *   not of the decision's kind (a privacy step on an invite request, a review decision on a privacy
 *   request); 409 `{ error }` for an acceptance into a cohort that does not exist (no start date to state).
 */
export function previewRoutes(options: AppOptions, api: ApiMiddleware, team: TeamContext): Hono<TeamEnv> {
  const db = options.database.db;
  const settings = options.mail ?? { privacyEmail: PRIVACY_EMAIL, teamEmail: undefined };
  return new Hono<TeamEnv>().post(
    '/preview',
    team.sameOrigin,
    team.session,
    api.jsonContentType,
    api.jsonBody(TEAM_AUTH_BODY_MAX_BYTES, 'team decision'),
    async (c) => {
      const parsed = previewBody.safeParse(c.var.body);
      if (!parsed.success) return problem(c, 400, `Bad preview: ${shapeProblem(parsed.error)}`);
      const body = parsed.data;
      const { decision } = body;
      const cohortName = 'cohort' in body ? body.cohort : undefined;
      const reason = 'reason' in body ? body.reason : undefined;
      const outcome = body.decision === 'respond' ? body.outcome : undefined;
      const attachSubject = body.decision === 'respond' ? body.attachSubject : undefined;
      const ids = [...new Set(body.ids)];
      const { entries, cohort } = await inTeamTransaction(db, 'read', async (tx) => ({
        entries: await findQueueEntries(tx, ids),
        cohort: cohortName === undefined ? undefined : (await listCohorts(tx)).find((one) => one.name.toLowerCase() === cohortNameOf(cohortName).toLowerCase()),
      }));
      const byId = new Map(entries.map((entry) => [entry.submissions.id, entry]));
      const kind = PRIVACY_STEPS.has(decision) ? 'privacy' : 'invite';
      const requests = ids.map((id) => byId.get(id)).filter((entry) => entry?.submissions.kind === kind && (kind === 'invite' || entry.privacy_records));
      if (requests.length !== ids.length) return problem(c, 404, 'No such request');
      if (decision === 'accept' && !cohort) return problem(c, 409, noCohort(cohortName, 'api'));
      const mails = previewMails(
        requests.map((entry) => ({ row: entry!.submissions, record: entry!.privacy_records })),
        decision,
        { ...(cohort ? { cohort } : {}), ...(reason !== undefined ? { reason } : {}), ...(outcome ? { outcome } : {}), ...(attachSubject !== undefined ? { attachSubject } : {}) },
        settings,
        team.origin(),
      );
      return c.json({ mails }, 200);
    },
  );
}
