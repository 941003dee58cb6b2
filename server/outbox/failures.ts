import { DELIVERY_FIRST_RETRY_MS, DELIVERY_MAX_RETRY_MS } from '../limits.ts';

// How the outbox (server/outbox/sender.ts) treats a failed delivery: given up at once, or tried again later.

/** A receiver's final refusal (an SMTP 5xx, such as an unknown mailbox): the delivery is given up at once. */
export class PermanentDeliveryError extends Error {
  override name = 'PermanentDeliveryError';
}

// An address as a receiver may quote it back (`550 <ada@example.com>: Recipient address rejected`).
const ADDRESS = /[^\s<>()"',;:@]+@[^\s<>()"',;:@]+/g;

/**
 * Why a delivery failed, as the log and `last_error` keep it: the channel's words (`HTTP 500`,
 * `TimeoutError: …`) with every email address masked, since a receiver's reply may quote one.
 */
export function problemOf(error: unknown): string {
  const text = !(error instanceof Error) ? String(error) : error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
  return text.replace(ADDRESS, '[address]');
}

/**
 * The wait before the next attempt after `attempts` failed ones, in ms: about 1 s after the first,
 * doubling, capped at 1 hour, each multiplied by a jitter in [0.8, 1.2) so that instances recovering
 * together do not retry in step.
 * @param random - a number in [0, 1), `Math.random()` by default
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random, firstMs = DELIVERY_FIRST_RETRY_MS): number {
  const base = Math.min(DELIVERY_MAX_RETRY_MS, firstMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
