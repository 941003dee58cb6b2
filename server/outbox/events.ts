import { Webhook } from 'standardwebhooks';
import type { DecisionEvent } from '../db/schema.ts';
import { WEBHOOK_DELIVERY_DEADLINE_MS } from '../limits.ts';
import type { Channel, Delivery } from './channel.ts';
import { postWebhook } from './webhook.ts';

/** Where the decision events go, and how they are signed (server/config.ts). */
export interface EventSettings {
  /** `SONDE_EVENTS_WEBHOOK_URL`: an http(s) URL */
  url: string;
  /** `SONDE_EVENTS_WEBHOOK_SECRET`: `whsec_<base64>` of 24 to 64 random bytes (Standard Webhooks); never logged */
  secret: string;
}

/**
 * The body of a decision event, Standard Webhooks' envelope: `type` (the event), `timestamp` (when the
 * decision was taken: the outbox row's `created_at`, ISO 8601 in UTC) and `data` (the row's payload, as
 * the decision fixed it). README, "Decision events", lists each type's `data`.
 */
export interface EventEnvelope {
  type: DecisionEvent;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The envelope of an `event` row.
 * @throws Error when the row has no event type or no payload (the sender keeps it as `last_error` and retries)
 */
function eventEnvelope(delivery: Pick<Delivery, 'event' | 'payload' | 'createdAt'>): EventEnvelope {
  if (delivery.event === null || delivery.payload === null) throw new Error('the event row has no type or no data');
  return { type: delivery.event, timestamp: delivery.createdAt.toISOString(), data: delivery.payload };
}

/**
 * The headers of Standard Webhooks for one attempt: `webhook-id` (the delivery id, the same on every
 * retry, so a receiver processes an event once), `webhook-timestamp` (this attempt's time, in whole
 * seconds since the epoch) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`,
 * made by the standardwebhooks library).
 */
function eventHeaders(signer: Webhook, deliveryId: string, body: string, now: Date = new Date()): Record<string, string> {
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signer.sign(deliveryId, now, body),
  };
}

/**
 * The decision events' channel (`SONDE_EVENTS_WEBHOOK_URL`): POSTs each `event` row's
 * {@link EventEnvelope} as JSON, signed as Standard Webhooks says ({@link eventHeaders}) with
 * `SONDE_EVENTS_WEBHOOK_SECRET`, so the API's onboarding can trust where an `invite.accepted` came from.
 * The envelope is the same bytes on every attempt; only the timestamp and the signature are new. A 2xx
 * is delivered; any other status (a redirect too: it is not followed), a network error or
 * `WEBHOOK_TIMEOUT_MS` (server/limits.ts) fails the attempt, and the sender retries it as it retries the
 * announcement (server/outbox/sender.ts). Neither the envelope nor the receiver's answer is logged.
 * @throws Error when the secret is not a `whsec_` base64 one (server/config.ts checks it first)
 */
export function eventChannel(settings: EventSettings): Channel {
  const signer = new Webhook(settings.secret);
  return {
    name: 'event',
    deadlineMs: WEBHOOK_DELIVERY_DEADLINE_MS,
    async deliver(delivery: Delivery, signal: AbortSignal) {
      const body = JSON.stringify(eventEnvelope(delivery));
      await postWebhook(settings.url, body, { headers: eventHeaders(signer, delivery.id, body), signal, redirect: 'manual' });
    },
  };
}
