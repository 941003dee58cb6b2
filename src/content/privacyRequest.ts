import { RETENTION } from '#shared/policy';

/** Copy of /privacy-request (spec §2, §3, §9). */
export const privacyRequestPage = {
  title: 'Privacy rights request',
  intro: `Use this form to exercise your rights under the California Consumer Privacy Act as amended by the CPRA. We confirm receipt by email, usually straight away and always within a day, with the date our answer is due, and respond within ${RETENTION.privacyResponseDays} days. Before we act on a request to know, delete, correct or port your information, we ask you to confirm that it is yours: the confirmation email has a link, and one press of “Confirm it's me” is all it takes. An opt-out needs no verification. We keep what you send here, with the time it was sent and the technical information listed in our policy, and a record of how we answered, for ${RETENTION.privacyRequestRecordMonths} months, as the CCPA regulations require; then it is deleted.`,
  policyLinkBefore: 'What we collect and why is described in our ',
  policyLink: 'privacy policy',
  typesTitle: 'What each request type means',
  optOutNow:
    'To stop analytics in this browser straight away, use “Do Not Sell or Share My Personal Information” at the foot of any page.',
  requiredNote: 'Fields marked * are required.',
  fullName: 'Full name',
  email: 'Email',
  emailHint: 'The address we should answer, and the one you used with us if it differs.',
  company: 'Company',
  requestType: 'Request type',
  additionalDetails: 'Additional details',
  submit: 'Submit request',
  submitting: 'Submitting...',
  errorTitle: 'Your request was not sent',
  errorAfter: 'What you typed is still here: check it and submit again.',
} as const;

/** What each request type of spec §3 asks for, in form order. */
export const requestTypeMeanings: Record<string, string> = {
  'Access/Know': 'Tell me what personal information you hold about me, where it came from and whom you shared it with.',
  Delete: 'Delete the personal information you hold about me.',
  Correct: 'Correct personal information about me that is inaccurate.',
  'Opt-Out': 'Stop selling or sharing my personal information, including for analytics.',
  'Data Portability': 'Send me my personal information in a portable, machine-readable format.',
  Other: 'Anything else about your personal information: describe it in the details.',
};
