import { z } from 'zod';
import type { SubmissionBody } from '../src/services/submission';

const requiredText = z.string().trim().min(1, 'is required');
const optionalText = z.string().optional();
const stringList = z.array(z.string());

/**
 * What the local inbox accepts (spec §3, §7.1): `{ event: 'invite_request', data }` where `data`
 * is the invite payload plus the client metadata. Tied to the client's {@link SubmissionBody}
 * type, so the two cannot drift apart.
 */
export const submissionBodySchema = z.object({
  event: z.literal('invite_request'),
  data: z.object({
    fullName: requiredText,
    workEmail: z.email(),
    roleTitle: requiredText,
    companyName: requiredText,
    websiteUrl: z.url().optional(),
    useCaseDescription: requiredText,
    primaryWorkloads: stringList,
    mustHaveCapabilities: stringList,
    estimatedMonthlyQueries: requiredText,
    peakQPS: requiredText,
    targetLatency: optionalText,
    keyRegionsLanguages: optionalText,
    desiredStartDate: z.iso.date().optional(),
    budgetRange: optionalText,
    notes: optionalText,
    consentGiven: z.boolean(),
    submittedAt: z.iso.datetime(),
    clientIP: z.string().nullable(),
    browserId: requiredText,
    userAgent: z.string(),
    browserLanguage: z.string(),
    timezone: z.string(),
    screenResolution: z.string().regex(/^\d+x\d+$/, 'must read WIDTHxHEIGHT'),
  }),
}) satisfies z.ZodType<SubmissionBody>;

/**
 * Checks a parsed JSON body.
 * @returns the checked body, or the first problem as one sentence (`data.workEmail: Invalid email address`).
 */
export function checkSubmissionBody(
  body: unknown,
): { ok: true; body: SubmissionBody } | { ok: false; problem: string } {
  const result = submissionBodySchema.safeParse(body);
  if (result.success) return { ok: true, body: result.data };
  const [issue] = result.error.issues;
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, problem: `${where}${issue?.message ?? 'invalid body'}` };
}
