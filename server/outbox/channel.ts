import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import type { DecisionEvent, MailMessage, OutboxChannel } from '../db/schema.ts';

// What the outbox sender (server/outbox/sender.ts) hands a channel, and what a channel is: the webhook
// (server/outbox/webhook.ts), mail (server/outbox/mail.ts), decision events (server/outbox/events.ts).

/** A request a delivery is about: a privacy confirmation may cover several requests to one mailbox. */
export interface CoveredRequest {
  id: string;
  receivedAt: Date;
  /** privacy requests: received + 45 days (the record's, moved by `extend`) */
  dueAt: Date | null;
  body: SubmissionBody;
}

/** One row of the outbox as a channel delivers it, with what it needs of its request. */
export interface Delivery {
  /** the delivery id: `X-Sonde-Delivery` of a webhook, the local part of a mail's `Message-ID`, an event's `webhook-id` */
  id: string;
  channel: OutboxChannel;
  /** the mail channel's message; null for the other channels */
  message: MailMessage | null;
  /** the `event` channel's event type (Standard Webhooks' `type`); null for the other channels */
  event: DecisionEvent | null;
  /** what the decision that wrote the row fixed (`deliveries.payload`): an event's `data`, a decision mail's facts */
  payload: Record<string, unknown> | null;
  /** when the row was written: for a decision's event or mail, when the decision was taken */
  createdAt: Date;
  /** `privacy-outcome`: attach the requester's subject export */
  attachSubject: boolean;
  /** privacy requests: the record of 11 CCR §7101 (outcome, reason, extension), as it is when sending */
  record: { outcome: string | null; outcomeReason: string | null; extensionReason: string | null; requestTypes: string[] } | null;
  /** 1 on the first attempt */
  attempts: number;
  submissionId: string;
  kind: SubmissionKind;
  /** the request's lower-cased email */
  email: string;
  receivedAt: Date;
  /** privacy requests: received + 45 days */
  dueAt: Date | null;
  body: SubmissionBody;
  /** the requests it is about, oldest first: its own, and those that joined its confirmation (`covers`) */
  covered: CoveredRequest[];
  /** the message as {@link Channel.render} made it at the first attempt; null before it is rendered */
  rendered: string | null;
}

/** A way of delivering: the webhook (server/outbox/webhook.ts), mail (server/outbox/mail.ts) or decision events (server/outbox/events.ts). */
export interface Channel {
  name: OutboxChannel;
  /**
   * The longest one delivery may take, in ms: past it, `signal` aborts it. The sender's lease on the row
   * is renewed until then (`DELIVERY_HEARTBEAT_MS`), however long that is.
   */
  deadlineMs: number;
  /**
   * Renders the message once, at its first attempt (with a verification token when it carries a link):
   * the sender keeps it with the row, and every attempt sends it as it is, so a retry, even after a
   * crash, is the same message. Without it, each attempt builds its own (the webhook).
   */
  render?(delivery: Delivery): Promise<string>;
  /**
   * Delivers one row, the same way on every attempt, and stops (closes its connection) when `signal`
   * aborts.
   * @returns `sent` once the receiver took it, or `written` when the mail channel wrote a file instead
   *   (no SMTP server set): then nobody was mailed, and the record of 11 CCR §7101 does not say so
   * @throws `PermanentDeliveryError` (server/outbox/failures.ts) when the receiver refused it for good (an SMTP 5xx): it is
   *   not tried again; any other Error says why (a status, a network error, never the receiver's
   *   body): the sender keeps it as `last_error` and tries again later
   */
  deliver(delivery: Delivery, signal: AbortSignal): Promise<'sent' | 'written' | void>;
  /**
   * Delivers a message rendered before it was queued (a team member's mail: an enrollment link, written
   * by the command line; the digest or an overdue alert), as {@link Channel.deliver} does; only the mail
   * channel has it.
   * @param message - the delivery id, the recipient's address, the message (RFC 5322, CRLF)
   */
  deliverRendered?(message: { id: string; to: string; raw: string }, signal: AbortSignal): Promise<'sent' | 'written'>;
}
