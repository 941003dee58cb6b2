import { PRIVACY_EMAIL, RETENTION } from '#shared/policy';

/**
 * Copy of /privacy-request/verify (11 CCR §7060): the page a privacy request's verification
 * link opens, in each of its states (machines/verifyMachine.ts).
 */
export const verifyPage = {
  title: 'Confirm your privacy request',
  intro:
    'Before we act on a request to know, delete, correct or port personal information, we make sure it comes from the person it is about. Confirming here is all we ask: no document, no account.',
  noScript: `This page needs JavaScript to confirm your request. You can instead reply to our confirmation email from the address you used, or write to ${PRIVACY_EMAIL}, and we will confirm it with you.`,
  checking: 'Checking your link…',
  requestLabel: 'The request this link confirms',
  receivedLabel: 'Received on',
  typesLabel: 'Request types',
  found: "We found your request. Check it below, then press Confirm it's me.",
  confirm: "Confirm it's me",
  confirming: 'Confirming…',
  notYours: 'Did not send this request? Close this page: we do not act on a request that is not confirmed.',
  errorTitle: 'Your request is not confirmed yet',
  retry: 'Try again',
  confirmedTitle: 'Thank you: your request is confirmed',
  confirmedBody: `We will answer by email within ${RETENTION.privacyResponseDays} days of receiving your request, by the date our confirmation email gave. If we need more time, we will tell you why before then.`,
  alreadyTitle: 'This request is already confirmed',
  alreadyBody: 'Nothing more is needed from you: we will answer by email by the date our confirmation email gave.',
  invalidTitle: 'This link is unknown or has expired',
  invalidBody: `A link works until the date your request is due, and not after we have answered it. Copy the whole link from the email, or send a new request; you can also write to ${PRIVACY_EMAIL}.`,
  newRequest: 'Send a new privacy request',
  backHome: 'Back to home',
} as const;
