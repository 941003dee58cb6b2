import { z } from 'zod';
import { TEXT_LIMITS } from '#shared/submission';
import { textProblem } from '#shared/text';
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
export const recordText = teamText.superRefine((value, ctx) => {
  const problemText = recordReasonProblem(value);
  if (problemText) ctx.addIssue({ code: 'custom', message: problemText });
});

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
