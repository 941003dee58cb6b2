import { describe, expect, it } from 'vitest';
import { privacyRequestFromFormData, privacyRequestToInvitePayload } from '@/forms/privacyRequest';
import { privacyRequestFixedFields } from '../support/submissionBody';

describe('privacy request → invite payload (spec §3)', () => {
  it('maps every field, with company, request types and details', () => {
    expect(
      privacyRequestToInvitePayload({
        fullName: 'Ada Lovelace',
        email: 'ada@example.com',
        company: 'Analytical Engines',
        requestType: ['Access/Know', 'Delete'],
        additionalDetails: 'Please include analytics data.',
      }),
    ).toEqual({
      fullName: 'Ada Lovelace',
      workEmail: 'ada@example.com',
      ...privacyRequestFixedFields,
      companyName: 'Analytical Engines',
      useCaseDescription: 'CCPA Privacy Rights Request\nRequest types: Access/Know, Delete\nDetails: Please include analytics data.',
      consentGiven: true,
    });
  });

  it("uses 'N/A' without a company, and says so when no type is chosen and no details are given", () => {
    const payload = privacyRequestToInvitePayload({ fullName: 'Ada', email: 'ada@example.com', requestType: [] });
    expect(payload.companyName).toBe('N/A');
    expect(payload.useCaseDescription).toBe('CCPA Privacy Rights Request\nRequest types: None selected\nDetails: None provided');
  });

  it("uses 'N/A' for a company of only invisible characters, which the server would refuse as blank", () => {
    for (const company of ['\u200b', '\u3164', '\u2800\u200d']) {
      expect(privacyRequestToInvitePayload({ fullName: 'Ada', email: 'ada@example.com', company, requestType: [] }).companyName).toBe('N/A');
    }
  });

  it('reads the form: trimmed text, blank optional fields left out, checked types in order', () => {
    const data = new FormData();
    data.append('fullName', ' Ada ');
    data.append('email', 'ada@example.com');
    data.append('company', '   ');
    data.append('requestType', 'Opt-Out');
    data.append('requestType', 'Other');
    data.append('additionalDetails', '');
    expect(privacyRequestFromFormData(data)).toEqual({ fullName: 'Ada', email: 'ada@example.com', requestType: ['Opt-Out', 'Other'] });
  });
});
