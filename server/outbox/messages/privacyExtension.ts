import { RETENTION } from '#shared/policy';
import { html, letter, longDate, para, privacySignature, writeTo, type MailContent, type MessageFacts } from './layout.ts';

/**
 * The notice of the one extension 11 CCR §7021(b) allows: the new due date (45 more days) and the
 * reason, sent before the first 45 days have passed (`npm run requests -- extend`). The reason is the
 * team's text, never the visitor's.
 */
export function privacyExtension(facts: MessageFacts & { reason: string }): MailContent {
  const subject = 'We need more time to answer your privacy request';
  const received = longDate(facts.receivedAt);
  const due = facts.dueAt ? longDate(facts.dueAt) : '';
  return letter(subject, [
    {
      text: `We need more time to answer the privacy request we received on ${received}. We will answer by ${due}, ${RETENTION.privacyResponseDays} days later than we first said; we do not extend again.`,
      html: html`<p>We need more time to answer the privacy request we received on ${received}. We will answer by <strong>${due}</strong>, ${RETENTION.privacyResponseDays} days later than we first said; we do not extend again.</p>`,
    },
    para`Why: ${facts.reason}`,
    writeTo('Questions: reply to this message, or write to', facts.privacyEmail),
    { ...privacySignature(facts.siteUrl), html: null },
  ]);
}
