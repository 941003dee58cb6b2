import { INVITE_NEXT_STEPS } from '#shared/inviteSteps';
import { letter, para, siteSignature, type MailContent, type MessageFacts } from './layout.ts';

/** The second step /thank-you promises (spec §2): "When we are ready to onboard you, we contact you at the email address you gave us." */
const REACH_OUT_STEP = INVITE_NEXT_STEPS[1];

/**
 * To the work email of a waitlisted invite request: on the waitlist, the beta admits teams on a rolling
 * basis, and the team reaches out when ready to onboard (spec §2, /thank-you's second step, in its
 * words). States nothing the visitor typed.
 */
export function inviteWaitlisted(facts: Pick<MessageFacts, 'siteUrl'>): MailContent {
  const subject = 'Your Sonde invite request: on the waitlist';
  return letter(subject, [
    para`Thank you for your interest in the Sonde beta. We reviewed your request and put it on our waitlist.`,
    para`The beta admits teams on a rolling basis. ${REACH_OUT_STEP.body}`,
    para`You do not need to do anything now, or to send another request.`,
    siteSignature(facts.siteUrl),
  ]);
}
