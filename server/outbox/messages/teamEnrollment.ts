import { html, htmlLayout, longDate, type MailContent } from './layout.ts';

/** `2026-11-27 09:30 UTC`: an expiry as the message and the command line state it, to the minute (truncated: the link still works then). */
export function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * To a team member (`team add`, `team link`): their enrollment link to the console, which registers a
 * passkey, works once and expires at `expiresAt` (24 h after it was made); if they did not expect it,
 * they can ignore it. States nothing of any request.
 * @param facts - `link`: the whole link, its token in the fragment; `siteUrl`: the site's public origin
 */
export function teamEnrollment(facts: { link: string; expiresAt: Date; siteUrl: string }): MailContent {
  const subject = 'Your Sonde team console link';
  const expiry = `${longDate(facts.expiresAt)}, ${utcMinute(facts.expiresAt).slice(11)}`;
  const text = [
    'Hello,',
    '',
    'You were added to the team that answers requests on the Sonde site. Open this link to register a passkey for the team console:',
    '',
    facts.link,
    '',
    `The link works once and expires in 24 hours, on ${expiry}. If it has expired, ask whoever added you for a new one.`,
    '',
    'If you did not expect this message, you can ignore it: nothing happens until the link is opened.',
    '',
    `Sonde — ${facts.siteUrl}`,
  ].join('\n');
  const body = html`<p>Hello,</p>
<p>You were added to the team that answers requests on the Sonde site. Open this link to register a passkey for the team console:</p>
<p><a href="${facts.link}">${facts.link}</a></p>
<p>The link works once and expires in 24 hours, on ${expiry}. If it has expired, ask whoever added you for a new one.</p>
<p>If you did not expect this message, you can ignore it: nothing happens until the link is opened.</p>
<p><a href="${facts.siteUrl}">${facts.siteUrl}</a></p>`;
  return { subject, text, html: htmlLayout(subject, body) };
}
