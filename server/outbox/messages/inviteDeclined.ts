import { html, htmlLayout, type MailContent, type MessageFacts } from './layout.ts';

/**
 * To the work email of a declined invite request: politely, that the beta has no place for it now, with
 * the team's reason when one was given (`requests decline --reason`; escaped in the HTML part). The reason
 * is the team's text, never the visitor's; without one, no reason is stated.
 * @param facts - `reason`: the team's reason, or null (an empty or blank one counts as none)
 */
export function inviteDeclined(facts: Pick<MessageFacts, 'siteUrl'> & { reason: string | null }): MailContent {
  const subject = 'Your Sonde invite request';
  const reason = facts.reason?.trim() || null;
  const text = [
    'Hello,',
    '',
    'Thank you for your interest in the Sonde beta, and for the time you took to tell us about your work.',
    '',
    'We reviewed your request, and we are not able to offer you a place in the beta at this time.',
    ...(reason ? ['', `Our reason: ${reason}`] : []),
    '',
    'We are grateful you considered Sonde.',
    '',
    `Sonde — ${facts.siteUrl}`,
  ].join('\n');
  const body = html`<p>Hello,</p>
<p>Thank you for your interest in the Sonde beta, and for the time you took to tell us about your work.</p>
<p>We reviewed your request, and we are not able to offer you a place in the beta at this time.</p>
${reason ? html`<p>Our reason: ${reason}</p>` : ''}
<p>We are grateful you considered Sonde.</p>
<p><a href="${facts.siteUrl}">${facts.siteUrl}</a></p>`;
  return { subject, text, html: htmlLayout(subject, body) };
}
