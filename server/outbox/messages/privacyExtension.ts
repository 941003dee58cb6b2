import { RETENTION } from '#shared/policy';
import { html, htmlLayout, longDate, type MailContent, type MessageFacts } from './layout.ts';

/**
 * The notice of the one extension 11 CCR §7021(b) allows: the new due date (45 more days) and the
 * reason, sent before the first 45 days have passed (`npm run requests -- extend`). The reason is the
 * team's text, never the visitor's.
 */
export function privacyExtension(facts: MessageFacts & { reason: string }): MailContent {
  const subject = 'We need more time to answer your privacy request';
  const received = longDate(facts.receivedAt);
  const due = facts.dueAt ? longDate(facts.dueAt) : '';
  const text = [
    'Hello,',
    '',
    `We need more time to answer the privacy request we received on ${received}. We will answer by ${due}, ${RETENTION.privacyResponseDays} days later than we first said; we do not extend again.`,
    '',
    `Why: ${facts.reason}`,
    '',
    `Questions: reply to this message, or write to ${facts.privacyEmail}.`,
    '',
    `Sonde — ${facts.siteUrl}/privacy`,
  ].join('\n');
  const body = html`<p>Hello,</p>
<p>We need more time to answer the privacy request we received on ${received}. We will answer by <strong>${due}</strong>, ${RETENTION.privacyResponseDays} days later than we first said; we do not extend again.</p>
<p>Why: ${facts.reason}</p>
<p>Questions: reply to this message, or write to <a href="mailto:${facts.privacyEmail}">${facts.privacyEmail}</a>.</p>`;
  return { subject, text, html: htmlLayout(subject, body) };
}
