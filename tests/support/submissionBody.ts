import type { SubmissionBody } from '#shared/submission';

/**
 * A valid body of spec §7.1 as the invite form sends it, `submittedAt` = `now`. `data` overrides
 * merge in (set a key to `undefined` to leave it out).
 */
export function submissionBody(data: Partial<Record<keyof SubmissionBody['data'], unknown>> = {}, now = new Date()): SubmissionBody {
  const body = {
    event: 'invite_request' as const,
    data: {
      fullName: 'Ada Lovelace',
      workEmail: 'ada@example.com',
      roleTitle: 'CTO',
      companyName: 'Analytical Ltd',
      useCaseDescription: 'A research agent that cites fresh sources.',
      primaryWorkloads: ['RAG'],
      mustHaveCapabilities: [],
      estimatedMonthlyQueries: '50M',
      peakQPS: '1000 QPS',
      consentGiven: true,
      submittedAt: now.toISOString(),
      clientIP: '203.0.113.9',
      browserId: 'sonde_0123456789abcdef_1795000000000',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      browserLanguage: 'en-GB',
      timezone: 'Europe/London',
      screenResolution: '1280x800',
      ...data,
    },
  };
  for (const [key, value] of Object.entries(body.data)) {
    if (value === undefined) delete (body.data as Record<string, unknown>)[key];
  }
  return body as SubmissionBody;
}

/**
 * The fields of an invite request that a privacy request of spec §3 fills the same way whatever the
 * visitor typed (name, email, company, request types and details are the visitor's).
 */
export const privacyRequestFixedFields = {
  roleTitle: 'Privacy Request',
  primaryWorkloads: ['Other'],
  mustHaveCapabilities: [] as string[],
  estimatedMonthlyQueries: 'N/A',
  peakQPS: 'N/A',
  notes: 'CCPA RIGHTS REQUEST',
};

/** The privacy request of spec §3 mapped onto an invite request, as the privacy form sends it. */
export function privacyRequestBody(now = new Date()): SubmissionBody {
  return submissionBody(
    {
      fullName: 'Grace Hopper',
      workEmail: 'Grace@Example.com',
      ...privacyRequestFixedFields,
      companyName: 'N/A',
      useCaseDescription: 'CCPA Privacy Rights Request\nRequest types: Delete, Access/Know\nDetails: None provided',
    },
    now,
  );
}
