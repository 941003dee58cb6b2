import { INVITE_NEXT_STEPS, ROLLING_NOTE } from '#shared/inviteSteps';
import { html, letter, longDate, para, siteSignature, type MailContent, type MessageFacts } from './layout.ts';

/**
 * To the work email of an invite request: received, what happens next (the three steps of /thank-you,
 * spec §2), rolling basis. States no text the visitor typed, so the form cannot send anyone a message
 * of the sender's choosing.
 */
export function inviteAcknowledgment(facts: MessageFacts): MailContent {
  const subject = 'We received your request for a Sonde invite';
  const received = longDate(facts.receivedAt);
  return letter(subject, [
    para`We received your request for an invite to the Sonde beta on ${received}. Here is what happens next:`,
    {
      text: INVITE_NEXT_STEPS.map((step, i) => `${i + 1}. ${step.title}. ${step.body}`).join('\n'),
      html: html`<ol>${INVITE_NEXT_STEPS.map((step) => html`<li><strong>${step.title}.</strong> ${step.body}</li>`)}</ol>`,
    },
    para`${ROLLING_NOTE}`,
    para`You do not need to do anything now. If you did not ask for an invite, you can ignore this message.`,
    siteSignature(facts.siteUrl),
  ]);
}
