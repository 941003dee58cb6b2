import type { PrivacyOutcome } from '../../db/schema.ts';
import { html, letter, longDate, para, privacySignature, writeTo, type MailContent, type MessageFacts } from './layout.ts';

const OUTCOME_SENTENCE: Record<PrivacyOutcome, string> = {
  complied: 'We have done what you asked.',
  denied: 'We have not done what you asked.',
  partly: 'We have done part of what you asked.',
};

/**
 * The response to a privacy request (11 CCR §7022(e), §7024): its outcome, and for a denial or a
 * partial answer the basis the team recorded (`npm run requests -- respond --reason`); with the
 * requester's data as a JSON attachment when the team attached it (Access/Know, Data Portability).
 * The reason is the team's text, never the visitor's.
 */
export function privacyOutcome(
  facts: MessageFacts & { types: string[]; outcome: PrivacyOutcome; reason: string | null; attached: boolean },
): MailContent {
  const subject = 'Our answer to your privacy request';
  const received = longDate(facts.receivedAt);
  const types = facts.types.length > 0 ? facts.types.join(', ') : 'none selected';
  const lines = [
    OUTCOME_SENTENCE[facts.outcome],
    ...(facts.reason ? [facts.outcome === 'complied' ? facts.reason : `Why: ${facts.reason}`] : []),
    ...(facts.attached ? ['The personal information we hold about you is attached as a JSON file (a portable, machine-readable format).'] : []),
  ];
  return letter(subject, [
    para`This is our answer to the privacy request we received on ${received} (request types: ${types}).`,
    { text: lines.join('\n'), html: html`${lines.map((line) => html`<p>${line}</p>`)}` },
    writeTo('If you disagree or have a question, reply to this message or write to', facts.privacyEmail),
    { ...privacySignature(facts.siteUrl), html: null },
  ]);
}
