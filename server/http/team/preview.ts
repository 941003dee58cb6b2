import { Hono } from 'hono';
import { z } from 'zod';
import { PRIVACY_EMAIL } from '#shared/policy';
import { listCohorts } from '../../db/decisions.ts';
import { findQueueEntries } from '../../db/queue.ts';
import { inTeamTransaction } from '../../db/teamTransaction.ts';
import { TEAM_AUTH_BODY_MAX_BYTES, TEAM_DECISION_BATCH_MAX } from '../../limits.ts';
import { previewMails } from '../../outbox/preview.ts';
import { problem, type ApiMiddleware } from '../middleware.ts';
import type { AppOptions } from '../options.ts';
import { requestId, requireCohortToAccept, shapeProblem, teamText } from './bodies.ts';
import type { TeamContext, TeamEnv } from './session.ts';

const PRIVACY_STEPS = new Set(['verify', 'extend', 'respond']);

const previewBody = z
  .object({
    decision: z.enum(['accept', 'waitlist', 'decline', 'spam', 'reopen', 'verify', 'extend', 'respond']),
    ids: z.array(requestId).min(1).max(TEAM_DECISION_BATCH_MAX),
    cohort: teamText.optional(),
    reason: teamText.optional(),
    outcome: z.enum(['complied', 'denied', 'partly']).optional(),
    attachSubject: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    // the facts the mail states: without them there is no mail to show
    requireCohortToAccept(body, ctx);
    if (body.decision === 'respond' && body.outcome === undefined) ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'required to respond' });
    if (body.decision === 'extend' && body.reason === undefined) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'required to extend' });
  });

/**
 * What a decision would mail, before it is confirmed, behind the same-origin check (403) and a session
 * (401). Path relative to `/api/team`:
 * - `POST /preview` `{ decision: 'accept'|'waitlist'|'decline'|'spam'|'reopen'|'verify'|'extend'|'respond',
 *   ids: uuid[] (1 to TEAM_DECISION_BATCH_MAX), cohort? (accept: required), reason? (decline, respond;
 *   extend: required), outcome? (respond: required), attachSubject? }` → 200 `{ mails: [{ id, to, subject,
 *   text }] }`: the mail the decision would write to each request's requester, in the order of `ids`,
 *   rendered by the outbox's own composition and templates (server/outbox/preview.ts `previewMails`);
 *   `mails: []` for spam, reopen and verify. Nothing is stored, nothing audited, no chart asked: a
 *   decision that would be refused is previewed all the same.
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
      const { decision, cohort: cohortName, reason, outcome, attachSubject } = parsed.data;
      const ids = [...new Set(parsed.data.ids)];
      const { entries, cohort } = await inTeamTransaction(db, 'read', async (tx) => ({
        entries: await findQueueEntries(tx, ids),
        cohort: cohortName === undefined ? undefined : (await listCohorts(tx)).find((one) => one.name === cohortName),
      }));
      const byId = new Map(entries.map((entry) => [entry.submissions.id, entry]));
      const kind = PRIVACY_STEPS.has(decision) ? 'privacy' : 'invite';
      const requests = ids.map((id) => byId.get(id)).filter((entry) => entry?.submissions.kind === kind && (kind === 'invite' || entry.privacy_records));
      if (requests.length !== ids.length) return problem(c, 404, 'No such request');
      if (decision === 'accept' && !cohort) return problem(c, 409, `no cohort "${cohortName}": create it with cohort add`);
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
