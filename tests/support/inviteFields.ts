/**
 * The invite request's payload fields (spec §3, "Invite request (payload)"), in the spec's order, stated
 * here on the tests' side: the form's fields and the payload builders are checked against this list,
 * never against src/'s own, so that a field src/ drops, renames or moves fails a test.
 */
export const INVITE_PAYLOAD_FIELDS = [
  'fullName',
  'workEmail',
  'roleTitle',
  'companyName',
  'websiteUrl',
  'useCaseDescription',
  'primaryWorkloads',
  'mustHaveCapabilities',
  'estimatedMonthlyQueries',
  'peakQPS',
  'targetLatency',
  'keyRegionsLanguages',
  'desiredStartDate',
  'budgetRange',
  'notes',
  'consentGiven',
] as const;

/** A field of {@link INVITE_PAYLOAD_FIELDS}. */
export type InvitePayloadField = (typeof INVITE_PAYLOAD_FIELDS)[number];

/** The fields of spec §3 that are not text a visitor types: the two checkbox groups and consent. */
const CHECKBOX_FIELDS: readonly InvitePayloadField[] = ['primaryWorkloads', 'mustHaveCapabilities', 'consentGiven'];

/** The payload's text fields (every field but the checkbox groups and consent), in the spec's order. */
export const INVITE_TEXT_FIELDS = INVITE_PAYLOAD_FIELDS.filter((field) => !CHECKBOX_FIELDS.includes(field));
