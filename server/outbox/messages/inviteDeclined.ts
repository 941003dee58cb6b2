import { letter, para, siteSignature, type MailContent, type MessageFacts } from './layout.ts';

/**
 * To the work email of a declined invite request: politely, that the beta has no place for it now, with
 * the team's reason when one was given (`requests decline --reason`; escaped in the HTML part). The reason
 * is the team's text, never the visitor's; without one, no reason is stated.
 * @param facts - `reason`: the team's reason, or null (an empty or blank one counts as none)
 */
export function inviteDeclined(facts: Pick<MessageFacts, 'siteUrl'> & { reason: string | null }): MailContent {
  const subject = 'Your Sonde invite request';
  const reason = facts.reason?.trim() || null;
  return letter(subject, [
    para`Thank you for your interest in the Sonde beta, and for the time you took to tell us about your work.`,
    para`We reviewed your request, and we are not able to offer you a place in the beta at this time.`,
    // without a reason the HTML part keeps the reason's line, empty
    reason ? para`Our reason: ${reason}` : { text: null, html: '' },
    para`We are grateful you considered Sonde.`,
    siteSignature(facts.siteUrl),
  ]);
}
