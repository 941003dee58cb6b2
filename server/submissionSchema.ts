import { z } from 'zod';
import { TEXT_LIMITS, type SubmissionBody } from '#shared/submission';
import { SUBMITTED_AT_MAX_AGE_MS, SUBMITTED_AT_MAX_AHEAD_MS } from './limits.ts';

// C0 controls, DEL and C1 controls: never in a name or a one-line answer. Multi-line free text may
// hold a newline (LF, or CR LF as some platforms send it) and a tab, nothing else of these.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_EXCEPT_NEWLINE_TAB = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const oneLine = (max: number) =>
  z.string().max(max, `is longer than ${max} characters`).refine((s) => !CONTROL.test(s), 'contains a control character');
const multiLine = (max: number) =>
  z
    .string()
    .max(max, `is longer than ${max} characters`)
    .refine((s) => !CONTROL_EXCEPT_NEWLINE_TAB.test(s), 'contains a control character');
const required = <T extends z.ZodString | z.ZodType<string>>(schema: T) =>
  schema.refine((s: string) => s.trim().length > 0, 'is required');

const shortText = oneLine(TEXT_LIMITS.short);
/** Checkbox groups send option labels; a list of at most 20 short strings. */
const optionList = z.array(required(shortText)).max(20, 'has more than 20 entries');

/**
 * What `POST /api/submissions` accepts (spec §3, §7.1): `{ event: 'invite_request', data }` where
 * `data` is the invite payload plus the client metadata. Stricter than the spec's browser checks:
 * consent must be given, the website is http(s), the IP is an IPv4/IPv6 address or null, every text
 * is within {@link TEXT_LIMITS} and free of control characters. Unknown keys are dropped.
 * Tied to the shared {@link SubmissionBody} type, so the client and the server cannot drift apart.
 * The `submittedAt` time window is checked by {@link checkSubmissionBody}, which knows the clock.
 */
export const submissionBodySchema = z.object({
  event: z.literal('invite_request'),
  data: z.object({
    fullName: required(shortText),
    workEmail: z.email().max(TEXT_LIMITS.email, `is longer than ${TEXT_LIMITS.email} characters`),
    roleTitle: required(shortText),
    companyName: required(shortText),
    websiteUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(TEXT_LIMITS.url, `is longer than ${TEXT_LIMITS.url} characters`)
      .optional(),
    useCaseDescription: required(multiLine(TEXT_LIMITS.long)),
    primaryWorkloads: optionList,
    mustHaveCapabilities: optionList,
    estimatedMonthlyQueries: required(shortText),
    peakQPS: required(shortText),
    targetLatency: shortText.optional(),
    keyRegionsLanguages: shortText.optional(),
    desiredStartDate: z.iso.date().optional(),
    budgetRange: shortText.optional(),
    notes: multiLine(TEXT_LIMITS.long).optional(),
    consentGiven: z.literal(true, 'must be true: consent is required'),
    submittedAt: z.iso.datetime({ offset: true }),
    clientIP: z.union([z.ipv4(), z.ipv6()], 'must be an IPv4 or IPv6 address, or null').nullable(),
    browserId: required(shortText),
    userAgent: oneLine(1000),
    browserLanguage: oneLine(100),
    timezone: oneLine(100),
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
