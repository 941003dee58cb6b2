import { describe, expect, it } from 'vitest';
import { invitePayloadFromFormData } from '@/forms/invitePayload';
import { formData } from '../support/formData';

describe('invite payload (spec §3, §5)', () => {
  it('turns checkbox groups into arrays of labels and consent into a boolean', () => {
    const payload = invitePayloadFromFormData(
      formData([
        ['fullName', ' Ada '],
        ['primaryWorkloads', 'RAG'],
        ['primaryWorkloads', 'Other'],
        ['mustHaveCapabilities', 'Logs & exports'],
        ['consentGiven', 'true'],
      ]),
    );
    expect(payload.fullName).toBe('Ada');
    expect(payload.primaryWorkloads).toEqual(['RAG', 'Other']);
    expect(payload.mustHaveCapabilities).toEqual(['Logs & exports']);
    expect(payload.consentGiven).toBe(true);
  });

  it('leaves empty optional fields out instead of sending ""', () => {
    const payload = invitePayloadFromFormData(
      formData([
        ['websiteUrl', ''],
        ['targetLatency', '   '],
        ['notes', ''],
        ['budgetRange', '$10k+/mo'],
      ]),
    );
    expect(payload).not.toHaveProperty('websiteUrl');
    expect(payload).not.toHaveProperty('targetLatency');
    expect(payload).not.toHaveProperty('notes');
    expect(payload).not.toHaveProperty('desiredStartDate');
    expect(payload.budgetRange).toBe('$10k+/mo');
    expect(payload.primaryWorkloads).toEqual([]);
    expect(payload.consentGiven).toBe(false);
  });
});
