import { z } from 'zod';
import { TEXT_LIMITS, type SubmissionBody } from '#shared/submission';
import { normalizeText, textProblem, type TextRuleOptions } from '#shared/text';
import { OPTION_LIST_MAX_ENTRIES, SUBMITTED_AT_MAX_AGE_MS, SUBMITTED_AT_MAX_AHEAD_MS } from '../limits.ts';

/**
 * A text field under the one text rule of shared/text.ts: NFC-normalised first (so the length is
 * counted on what is stored), then at most `max` characters, then the rule (well-formed, no control or
 * direction-override character, a visible character when required).
 */
const text = (max: number, rule: TextRuleOptions = {}) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? normalizeText(value) : value),
    z
      .string()
      .max(max, `is longer than ${max} characters`)
      .superRefine((value, ctx) => {
        const problem = textProblem(value, rule);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  );

const requiredLine = (max: number) => text(max, { required: true });
const shortText = text(TEXT_LIMITS.short);
/** Checkbox groups send option labels; a list of at most OPTION_LIST_MAX_ENTRIES short strings. */
const optionList = z.array(requiredLine(TEXT_LIMITS.short)).max(OPTION_LIST_MAX_ENTRIES, `has more than ${OPTION_LIST_MAX_ENTRIES} entries`);

/**
 * What `POST /api/submissions` accepts (spec §3, §7.1): `{ event: 'invite_request', data }` where
 * `data` is the invite payload plus the client metadata. Stricter than the spec's browser checks:
 * consent must be given, the website is http(s), the IP is an IPv4/IPv6 address or null, every text
 * is within {@link TEXT_LIMITS} and keeps the text rule of shared/text.ts (stored NFC-normalised).
 * Unknown keys are dropped.
 * Tied to the shared {@link SubmissionBody} type, so the client and the server cannot drift apart.
 * The `submittedAt` time window is checked by {@link checkSubmissionBody}, which knows the clock.
 */
const submissionBodySchema = z.object({
  event: z.literal('invite_request'),
  data: z.object({
    fullName: requiredLine(TEXT_LIMITS.short),
    workEmail: text(TEXT_LIMITS.email, { required: true }).pipe(z.email()),
    roleTitle: requiredLine(TEXT_LIMITS.short),
    companyName: requiredLine(TEXT_LIMITS.short),
    websiteUrl: text(TEXT_LIMITS.url).pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })).optional(),
    useCaseDescription: text(TEXT_LIMITS.long, { multiline: true, required: true }),
    primaryWorkloads: optionList,
    mustHaveCapabilities: optionList,
    estimatedMonthlyQueries: requiredLine(TEXT_LIMITS.short),
    peakQPS: requiredLine(TEXT_LIMITS.short),
    targetLatency: shortText.optional(),
    keyRegionsLanguages: shortText.optional(),
    desiredStartDate: z.iso.date().optional(),
    budgetRange: shortText.optional(),
    notes: text(TEXT_LIMITS.long, { multiline: true }).optional(),
    consentGiven: z.literal(true, 'must be true: consent is required'),
    submittedAt: z.iso.datetime({ offset: true }),
    clientIP: z.union([z.ipv4(), z.ipv6()], 'must be an IPv4 or IPv6 address, or null').nullable(),
    browserId: requiredLine(TEXT_LIMITS.short),
    userAgent: text(1000),
    browserLanguage: text(100),
    timezone: text(100),
    screenResolution: z.string().regex(/^\d{1,5}x\d{1,5}$/, 'must read WIDTHxHEIGHT'),
  }),
}) satisfies z.ZodType<SubmissionBody>;

/** The outcome of {@link checkSubmissionBody}. */
export type CheckedSubmission = { ok: true; body: SubmissionBody } | { ok: false; problem: string };

/**
 * Checks a parsed JSON body against {@link submissionBodySchema} and the `submittedAt` window:
 * at most {@link SUBMITTED_AT_MAX_AHEAD_MS} ahead of `now`, at most {@link SUBMITTED_AT_MAX_AGE_MS} old.
 * @param body - the parsed JSON, of any shape
 * @param now - the server's clock
 * @returns the checked body (unknown keys dropped), or the first problem as one sentence naming its
 *   field, e.g. `data.workEmail: Invalid email address`. Never throws.
 */
export function checkSubmissionBody(body: unknown, now: Date = new Date()): CheckedSubmission {
  const result = submissionBodySchema.safeParse(body);
  if (!result.success) {
    const [issue] = result.error.issues;
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { ok: false, problem: `${where}${issue?.message ?? 'invalid body'}` };
  }
  const submittedAt = Date.parse(result.data.data.submittedAt);
  if (submittedAt - now.getTime() > SUBMITTED_AT_MAX_AHEAD_MS) {
    return { ok: false, problem: 'data.submittedAt: is more than 5 minutes ahead of the server clock' };
  }
  if (now.getTime() - submittedAt > SUBMITTED_AT_MAX_AGE_MS) {
    return { ok: false, problem: 'data.submittedAt: is more than 30 days old' };
  }
  return { ok: true, body: result.data };
}
