import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { notificationText } from '../webhook.ts';
import { html, htmlLayout, longDate, type MailContent } from './layout.ts';

/**
 * To the team (`SONDE_TEAM_EMAIL`), one per stored request: the webhook's announcement, the id, and the
 * command that shows the rest. This one message does carry the visitor's text: it goes to the team.
 */
export function teamNewRequest(facts: {
  submissionId: string;
  kind: SubmissionKind;
  data: SubmissionBody['data'];
  receivedAt: Date;
  dueAt: Date | null;
}): MailContent {
  const announcement = notificationText(facts.kind, facts.data, facts.dueAt, (text) => text);
  const subject = announcement.length > 150 ? `${announcement.slice(0, 149)}…` : announcement;
  const command = `npm run requests -- show ${facts.submissionId}`;
  const text = [announcement, '', `Received: ${longDate(facts.receivedAt)}`, `Id: ${facts.submissionId}`, '', `Everything stored: ${command}`].join('\n');
  const body = html`<p>${announcement}</p>
<p>Received: ${longDate(facts.receivedAt)}<br>Id: <code>${facts.submissionId}</code></p>
<p>Everything stored: <code>${command}</code></p>`;
  return { subject, text, html: htmlLayout(subject, body) };
}
