/**
 * What happens after an invite request (spec §2, /thank-you), said once for the page and for the
 * acknowledgment mail the server sends (server/outbox/messages/), so the two never tell a visitor
 * different things.
 */
export const INVITE_NEXT_STEPS = [
  { title: 'We review your request', body: 'Our team reads every request and checks your workload against the current beta capacity.' },
  { title: 'We reach out when ready', body: 'When we are ready to onboard you, we contact you at the email address you gave us.' },
  { title: 'You join a cohort', body: 'Approved applicants are placed in a cohort and given API credentials.' },
] as const;

/** Spec §2: how invite requests are processed. */
export const ROLLING_NOTE = 'Applications are processed on a rolling basis.';
