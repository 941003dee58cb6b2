import { INVITE_NEXT_STEPS, ROLLING_NOTE } from '#shared/inviteSteps';
import { html, htmlLayout, longDate, type MailContent, type MessageFacts } from './layout.ts';

/**
 * To the work email of an invite request: received, what happens next (the three steps of /thank-you,
 * spec §2), rolling basis. States no text the visitor typed, so the form cannot send anyone a message
 * of the sender's choosing.
 */
export function inviteAcknowledgment(facts: MessageFacts): MailContent {
  const subject = 'We received your request for a Sonde invite';
  const received = longDate(facts.receivedAt);
  const text = [
    'Hello,',
    '',
    `We received your request for an invite to the Sonde beta on ${received}. Here is what happens next:`,
    '',
    ...INVITE_NEXT_STEPS.map((step, i) => `${i + 1}. ${step.title}. ${step.body}`),
    '',
    ROLLING_NOTE,
    '',
    'You do not need to do anything now. If you did not ask for an invite, you can ignore this message.',
    '',
    `Sonde — ${facts.siteUrl}`,
  ].join('\n');
  const body = html`<p>Hello,</p>
<p>We received your request for an invite to the Sonde beta on ${received}. Here is what happens next:</p>
<ol>${INVITE_NEXT_STEPS.map((step) => html`<li><strong>${step.title}.</strong> ${step.body}</li>`)}</ol>
<p>${ROLLING_NOTE}</p>
<p>You do not need to do anything now. If you did not ask for an invite, you can ignore this message.</p>
<p><a href="${facts.siteUrl}">${facts.siteUrl}</a></p>`;
  return { subject, text, html: htmlLayout(subject, body) };
}
