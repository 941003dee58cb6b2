import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invitePayloadFromFormData } from '@/forms/invitePayload';
import { ADDITIONAL_DETAILS_MAX_LENGTH, PRIVACY_REQUEST_TYPES, privacyRequestFromFormData, privacyRequestToInvitePayload } from '@/forms/privacyRequest';
import { buildSubmissionBody } from '@/services/submission';
import { TEXT_LIMITS, type ClientMetadata, type InvitePayload } from '#shared/submission';
import { textProblem } from '#shared/text';
import { checkSubmissionBody } from '../../server/http/submissionSchema';
import { formData } from '../support/formData';
import { INVITE_TEXT_FIELDS } from '../support/inviteFields';

/**
 * Property-based tests: whatever a visitor types — any Unicode, empty, or at and past the
 * server's length limits — the payload builders never throw, and the body they give is either accepted
 * by the server's own schema or refused with a problem that names the field (the 400 a visitor sees).
 */

const metadata: ClientMetadata = {
  submittedAt: new Date().toISOString(),
  clientIP: '203.0.113.7',
  browserId: 'sonde_0123456789abcdef_1',
  userAgent: 'property test',
  browserLanguage: 'en-US',
  timezone: 'UTC',
  screenResolution: '1280x720',
};

/** Text a visitor might type: any Unicode (surrogate pairs, controls, newlines), empty, or around the longest limit. */
const typed = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constant(''),
  fc.constantFrom(' ', '\n\t ', 'ada@example.com', 'https://example.com/'),
  fc.integer({ min: TEXT_LIMITS.short - 1, max: TEXT_LIMITS.long + 1 }).map((length) => 'é'.repeat(length)),
);

/** The server's verdict on a payload, as JSON crosses the network. */
function verdict(payload: InvitePayload) {
  const body: unknown = JSON.parse(JSON.stringify(buildSubmissionBody(payload, metadata)));
  return checkSubmissionBody(body);
}

const namesAField = (problem: string) => /^data\.(\w+)(\.\d+)?: \S/.exec(problem)?.[1];

describe('payload builders under arbitrary input (fast-check)', () => {
  it('the invite form: never throws; the server accepts the body or names the field it refuses', () => {
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(INVITE_TEXT_FIELDS.map((field) => [field, typed])) as Record<(typeof INVITE_TEXT_FIELDS)[number], fc.Arbitrary<string>>),
        fc.array(fc.string({ unit: 'binary', maxLength: 30 }), { maxLength: 4 }),
        fc.boolean(),
        (texts, workloads, consent) => {
          const entries: Array<[string, string]> = Object.entries(texts);
          for (const workload of workloads) entries.push(['primaryWorkloads', workload]);
          if (consent) entries.push(['consentGiven', 'true']);
          const payload = invitePayloadFromFormData(formData(entries));
          const checked = verdict(payload);
          if (!checked.ok) expect([...INVITE_TEXT_FIELDS, 'primaryWorkloads', 'consentGiven']).toContain(namesAField(checked.problem));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a well-formed invite with answers at the limits is accepted', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: TEXT_LIMITS.short }).filter((text) => textProblem(text, { required: true }) === null), (text) => {
        const payload = invitePayloadFromFormData(
          formData([
            ['fullName', text],
            ['workEmail', 'ada@example.com'],
            ['roleTitle', text],
            ['companyName', text],
            ['useCaseDescription', text],
            ['estimatedMonthlyQueries', text],
            ['peakQPS', text],
            ['consentGiven', 'true'],
          ]),
        );
        expect(verdict(payload)).toMatchObject({ ok: true });
      }),
      { numRuns: 200 },
    );
  });

  it('the privacy form\'s longest details, with every request type, still fit the server\'s limit', () => {
    const payload = privacyRequestToInvitePayload({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      requestType: [...PRIVACY_REQUEST_TYPES],
      additionalDetails: 'x'.repeat(ADDITIONAL_DETAILS_MAX_LENGTH),
    });
    expect(payload.useCaseDescription).toHaveLength(TEXT_LIMITS.long);
    expect(verdict(payload)).toMatchObject({ ok: true });
  });

  it('the privacy mapping: never throws; the server accepts the body or names the field it refuses', () => {
    fc.assert(
      fc.property(
        typed,
        typed,
        typed,
        typed,
        fc.subarray([...PRIVACY_REQUEST_TYPES]),
        (fullName, email, company, additionalDetails, requestTypes) => {
          const entries: Array<[string, string]> = [
            ['fullName', fullName],
            ['email', email],
            ['company', company],
            ['additionalDetails', additionalDetails],
            ...requestTypes.map((type): [string, string] => ['requestType', type]),
          ];
          const payload = privacyRequestToInvitePayload(privacyRequestFromFormData(formData(entries)));
          expect(payload.roleTitle).toBe('Privacy Request');
          const checked = verdict(payload);
          if (!checked.ok) expect(['fullName', 'workEmail', 'companyName', 'useCaseDescription']).toContain(namesAField(checked.problem));
        },
      ),
      { numRuns: 300 },
    );
  });
});
