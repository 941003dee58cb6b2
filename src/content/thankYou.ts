import { INVITE_NEXT_STEPS, ROLLING_NOTE } from '#shared/inviteSteps';

/** Thank-you page copy (spec §2). */
export const thankYou = {
  title: 'Request received',
  intro: 'Thanks for your interest in the beta. Here is what happens next.',
  steps: INVITE_NEXT_STEPS,
  rollingNote: ROLLING_NOTE,
  backHome: 'Back to home',
} as const;
