import { html, letter, longDate, para, siteSignature, type MailContent } from './layout.ts';

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
  return letter(subject, [
    para`You were added to the team that answers requests on the Sonde site. Open this link to register a passkey for the team console:`,
    { text: facts.link, html: html`<p><a href="${facts.link}">${facts.link}</a></p>` },
    para`The link works once and expires in 24 hours, on ${expiry}. If it has expired, ask whoever added you for a new one.`,
    para`If you did not expect this message, you can ignore it: nothing happens until the link is opened.`,
    siteSignature(facts.siteUrl),
  ]);
}
