import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { WEBHOOK_DELIVERY_DEADLINE_MS, WEBHOOK_TIMEOUT_MS } from '../limits.ts';
import type { Channel, Delivery } from './channel.ts';

/**
 * The JSON a webhook receives: Slack-compatible (`text`, shown as plain text: `mrkdwn: false`, no link
 * previews), plus the request's id and kind.
 */
export interface WebhookPayload {
  text: string;
  mrkdwn: false;
  unfurl_links: false;
  unfurl_media: false;
  submissionId: string;
  kind: SubmissionKind;
}

/**
 * A visitor's text made inert in a Slack message: `&`, `<` and `>` as Slack's entities, so that no
 * mention (`<!channel>`, `<@U012345>`), command or link (`<https://evil.example|Sonde admin login>`)
 * can be formed from it (https://api.slack.com/reference/surfaces/formatting#escaping). Formatting
 * marks (`*bold*`) are left to `mrkdwn: false` on the message.
 */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The one-line announcement of a request: `New invite request: Ada Lovelace (CTO, Analytical Ltd) —
 * 50M queries/month`, or `Privacy request (Delete, Access/Know) — due 2027-01-06` (the types as the
 * privacy form's mapping lists them, spec §3). Every piece of the visitor's text goes through
 * `escape`: {@link escapeSlackText} for the webhook, nothing for the team's plain-text mail.
 */
export function announcementText(
  kind: SubmissionKind,
  data: SubmissionBody['data'],
  dueAt: Date | null,
  escape: (text: string) => string = escapeSlackText,
): string {
  if (kind === 'privacy') {
    const types = /^Request types: (.*)$/m.exec(data.useCaseDescription)?.[1] ?? 'None selected';
    return `Privacy request (${escape(types)}) — due ${dueAt ? dueAt.toISOString().slice(0, 10) : 'unknown'}`;
  }
  const [name, role, company, volume] = [data.fullName, data.roleTitle, data.companyName, data.estimatedMonthlyQueries].map(escape);
  return `New invite request: ${name} (${role}, ${company}) — ${volume} queries/month`;
}

/**
 * POSTs one JSON body to a webhook receiver, cut at {@link WEBHOOK_TIMEOUT_MS} or when `signal` aborts.
 * The answer's body is never read (nor kept, nor logged): only its status counts. Shared by the
 * announcement ({@link webhookChannel}) and the decision events (server/outbox/events.ts).
 * @param body - the JSON text, sent as it is (a signature covers these exact bytes)
 * @param options - `headers`: sent besides `content-type: application/json`; `redirect: 'manual'`: a 3xx
 *   is a failure, not followed (Standard Webhooks, "Delivery success and failure"); the announcement
 *   follows redirects, as it always has
 * @throws Error `HTTP <status>` for an answer other than 2xx, or the network's error or the abort:
 *   the sender retries
 */
export async function postWebhook(
  url: string,
  body: string,
  options: { headers: Record<string, string>; signal: AbortSignal; redirect?: 'follow' | 'manual' },
): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body,
    redirect: options.redirect ?? 'follow',
    signal: AbortSignal.any([options.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

/**
 * The webhook channel (`SONDE_ANNOUNCE_WEBHOOK_URL`): POSTs a {@link WebhookPayload} with
 * `X-Sonde-Delivery: <delivery id>` (the same on every retry, so a receiver can drop duplicates) and a
 * {@link WEBHOOK_TIMEOUT_MS} time-out ({@link postWebhook}).
 * @throws Error `HTTP <status>` for an answer other than 2xx, or the network's error: the sender retries
 */
export function webhookChannel(url: string): Channel {
  return {
    name: 'webhook',
    deadlineMs: WEBHOOK_DELIVERY_DEADLINE_MS,
    async deliver(delivery: Delivery, signal: AbortSignal) {
      const payload: WebhookPayload = {
        text: announcementText(delivery.kind, delivery.body.data, delivery.dueAt),
        mrkdwn: false,
        unfurl_links: false,
        unfurl_media: false,
        submissionId: delivery.submissionId,
        kind: delivery.kind,
      };
      await postWebhook(url, JSON.stringify(payload), { headers: { 'x-sonde-delivery': delivery.id }, signal });
    },
  };
}
