import { z } from 'zod';
import { TEXT_LIMITS } from '#shared/submission';
import { textProblem } from '#shared/text';
import { statesBasis } from '#machines/privacyCourseMachine';
import { recordReasonProblem } from '../../db/privacySteps.ts';

/**
 * A one-line text of at most `max` characters (UTF-16 units) as stored, NFC-normalised (which can lengthen
 * it: U+FB2C is three characters in NFC): the text rule of shared/text.ts, as for visitors and the command line.
 */
const oneLine = (max: number) =>
  z
    .string()
    .transform((value) => value.normalize('NFC'))
    .pipe(
      z
        .string()
        .max(max, `at most ${max} characters`)
        .superRefine((value, ctx) => {
          const problemText = textProblem(value, { required: true });
          if (problemText) ctx.addIssue({ code: 'custom', message: `the text ${problemText}` });
        }),
    );

/** A one-line text the team writes into a record or a mail (a reason, a note): at most `TEXT_LIMITS.long` characters. */
export const teamText = oneLine(TEXT_LIMITS.long);

/**
 * A name the team gives a new cohort: at most `TEXT_LIMITS.short` characters, as a visitor's name, so the
 * queue's `cohort` filter (`TEAM_QUEUE_SEARCH_MAX_LENGTH`) can name it. A cohort is named in a decision
 * with {@link teamText}: one made before this limit keeps its name.
 */
export const teamName = oneLine(TEXT_LIMITS.short);

/**
 * A request's id: a UUID in any case, as lower case (RFC 9562 §4: case-insensitive on input, lower case
 * on output), so an id compares equal to the stored one however it was typed.
 */
export const requestId = z.uuid().transform((id) => id.toLowerCase());

/**
 * A reason kept in the record of 11 CCR §7101, which outlives the request's erasure: a {@link teamText}
 * without an email address (server/db/privacySteps.ts `recordReasonProblem`), as the command line's `--reason`.
 */
const recordText = teamText.superRefine((value, ctx) => {
  const problemText = recordReasonProblem(value);
  if (problemText) ctx.addIssue({ code: 'custom', message: problemText });
});

/** A field a step cannot go without: zod's message for it absent is "required to <step>". */
const requiredTo = (step: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? `required to ${step}` : undefined) });

/**
 * What an invite decision's body holds besides its decision and requests, as `POST /decisions` takes it and
 * `POST /preview` previews it: the cohort (accept: required, {@link requireCohortToAccept}), the reason told to
 * the applicant, and the team's note.
 */
export const inviteDecisionFields = z.object({ cohort: teamText.optional(), reason: teamText.optional(), note: teamText.optional() });

/**
 * What a privacy step's body holds besides its request, as `POST /privacy/<step>` takes it and `POST /preview`
 * previews it: one schema, so the preview refuses what the step refuses. A response's basis is
 * {@link requireBasisToRespond}.
 */
export const privacyStepFields = {
  extend: z.object({ reason: z.string(requiredTo('extend')).pipe(recordText) }),
  respond: z.object({
    outcome: z.enum(['complied', 'denied', 'partly'], requiredTo('respond')),
    reason: recordText.optional(),
    attachSubject: z.boolean().optional(),
  }),
};

/**
 * A denial or a partial answer states its basis (11 CCR §7022, §7024; the chart's `statesBasis`): a
 * refinement of every body that carries a response, `POST /privacy/respond` and `POST /preview`.
 */
export function requireBasisToRespond(body: { outcome: 'complied' | 'denied' | 'partly'; reason?: string | undefined }, ctx: z.RefinementCtx): void {
  if (!statesBasis(body)) ctx.addIssue({ code: 'custom', path: ['reason'], message: `required when the outcome is ${body.outcome}: the requester is told why (11 CCR §7022, §7024)` });
}

/**
 * An acceptance names its cohort: the request is placed in it and the applicant's mail states it. A
 * refinement (`superRefine`) of every body that carries a decision: `POST /decisions` and `POST /preview`.
 */
export function requireCohortToAccept(body: { decision: string; cohort?: string }, ctx: z.RefinementCtx): void {
  if (body.decision === 'accept' && body.cohort === undefined) ctx.addIssue({ code: 'custom', path: ['cohort'], message: 'required to accept' });
}

/** The first problem of a body that is not of its shape, in words: `<path>: <message>`. */
export const shapeProblem = (error: z.ZodError): string => error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)[0]!;

/** Who a member is in a record, a timeline or a mail: the name, else the email. */
export const memberName = (member: { name: string | null; email: string }): string => member.name ?? member.email;
