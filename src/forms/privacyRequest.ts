import { PRIVACY_REQUEST_MARKERS, PRIVACY_REQUEST_TYPES, TEXT_LIMITS, type InvitePayload } from '#shared/submission';
import { hasVisibleText } from '#shared/text';
import { checkedValues, optionalText, requiredText } from './formData';

// The request types live in shared/ because the server's mail names them too.
export { PRIVACY_REQUEST_TYPES };

/** What the privacy request form holds (spec §3). */
export interface PrivacyRequest {
  fullName: string;
  email: string;
  company?: string;
  /** selected request types, in form order; none is allowed (spec §5) */
  requestType: string[];
  additionalDetails?: string;
}

/** First line of the text block sent as useCaseDescription (spec §3). */
const PRIVACY_REQUEST_HEADING = 'CCPA Privacy Rights Request';

/** The text block of spec §3 sent as useCaseDescription. */
function requestBlock(types: string, details: string): string {
  return [PRIVACY_REQUEST_HEADING, `Request types: ${types}`, `Details: ${details}`].join('\n');
}

/**
 * The longest "Additional details", in characters, that still fits the server's limit for
 * useCaseDescription (TEXT_LIMITS.long) once the block of spec §3 wraps it with every request type.
 */
export const ADDITIONAL_DETAILS_MAX_LENGTH = TEXT_LIMITS.long - requestBlock(PRIVACY_REQUEST_TYPES.join(', '), '').length;

/** Serialises the privacy request form (inputs named fullName, email, company, requestType, additionalDetails). */
export function privacyRequestFromFormData(data: FormData): PrivacyRequest {
  const request: PrivacyRequest = {
    fullName: requiredText(data, 'fullName'),
    email: requiredText(data, 'email'),
    requestType: checkedValues(data, 'requestType'),
  };
  const company = optionalText(data, 'company');
  const additionalDetails = optionalText(data, 'additionalDetails');
  if (company) request.company = company;
  if (additionalDetails) request.additionalDetails = additionalDetails;
  return request;
}

/**
 * Maps a privacy request onto the invite payload it is sent as (spec §3):
 * roleTitle 'Privacy Request', companyName the company or 'N/A', useCaseDescription a block headed
 * 'CCPA Privacy Rights Request' listing the request types and the details (or 'None provided'),
 * primaryWorkloads ['Other'], no capabilities, 'N/A' volumes, notes 'CCPA RIGHTS REQUEST', consent true.
 */
export function privacyRequestToInvitePayload(request: PrivacyRequest): InvitePayload {
  const types = request.requestType.length > 0 ? request.requestType.join(', ') : 'None selected';
  return {
    fullName: request.fullName,
    workEmail: request.email,
    roleTitle: PRIVACY_REQUEST_MARKERS.roleTitle,
    // an optional company of only invisible characters is no company: the server requires a visible one
    companyName: request.company !== undefined && hasVisibleText(request.company) ? request.company : 'N/A',
    useCaseDescription: requestBlock(types, request.additionalDetails ?? 'None provided'),
    primaryWorkloads: ['Other'],
    mustHaveCapabilities: [],
    estimatedMonthlyQueries: 'N/A',
    peakQPS: 'N/A',
    notes: PRIVACY_REQUEST_MARKERS.notes,
    consentGiven: true,
  };
}
