import { checkedValues, isChecked, optionalText, requiredText } from './formData';
import type { InvitePayload } from '#shared/submission';

/**
 * Serialises the invite form into the payload of spec §3: checkbox groups become arrays of the
 * checked option labels, empty optional fields are left out (spec §5), `consentGiven` is a boolean.
 * @param data - `new FormData(form)` of the invite form, whose inputs are named after the payload fields
 */
export function invitePayloadFromFormData(data: FormData): InvitePayload {
  const payload: InvitePayload = {
    fullName: requiredText(data, 'fullName'),
    workEmail: requiredText(data, 'workEmail'),
    roleTitle: requiredText(data, 'roleTitle'),
    companyName: requiredText(data, 'companyName'),
    websiteUrl: optionalText(data, 'websiteUrl'),
    useCaseDescription: requiredText(data, 'useCaseDescription'),
    primaryWorkloads: checkedValues(data, 'primaryWorkloads'),
    mustHaveCapabilities: checkedValues(data, 'mustHaveCapabilities'),
    estimatedMonthlyQueries: requiredText(data, 'estimatedMonthlyQueries'),
    peakQPS: requiredText(data, 'peakQPS'),
    targetLatency: optionalText(data, 'targetLatency'),
    keyRegionsLanguages: optionalText(data, 'keyRegionsLanguages'),
    desiredStartDate: optionalText(data, 'desiredStartDate'),
    budgetRange: optionalText(data, 'budgetRange'),
    notes: optionalText(data, 'notes'),
    consentGiven: isChecked(data, 'consentGiven'),
  };
  // JSON.stringify drops undefined values, but the analytics event and tests see the object itself.
  for (const key of Object.keys(payload) as (keyof InvitePayload)[]) {
    if (payload[key] === undefined) delete payload[key];
  }
  return payload;
}
