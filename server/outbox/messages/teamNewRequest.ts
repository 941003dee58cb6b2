import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { TEAM_SUBJECT_MAX_LENGTH } from '../../limits.ts';
import { announcementText } from '../webhook.ts';
import { html, htmlLayout, longDate, type MailContent } from './layout.ts';

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` cut to at most `max` UTF-16 code units, ending in `…` when cut: only at a grapheme boundary
 * (`Intl.Segmenter`), so that no surrogate pair, emoji ZWJ sequence or combining mark is split.
 */
export function truncateAtGrapheme(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { index, segment } of GRAPHEMES.segment(text)) {
    if (index + segment.length > max - 1) break;
    end = index + segment.length;
  }
  return `${text.slice(0, end)}…`;
}

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
  const announcement = announcementText(facts.kind, facts.data, facts.dueAt, (text) => text);
  const subject = truncateAtGrapheme(announcement, TEAM_SUBJECT_MAX_LENGTH);
  const command = `npm run requests -- show ${facts.submissionId}`;
  const text = [announcement, '', `Received: ${longDate(facts.receivedAt)}`, `Id: ${facts.submissionId}`, '', `Everything stored: ${command}`].join('\n');
  const body = html`<p>${announcement}</p>
<p>Received: ${longDate(facts.receivedAt)}<br>Id: <code>${facts.submissionId}</code></p>
<p>Everything stored: <code>${command}</code></p>`;
  return { subject, text, html: htmlLayout(subject, body) };
}
