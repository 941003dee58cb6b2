import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import type { Db } from '../db/database.ts';
import { claimDeliveries, keepRendered, markConfirmationSent, markDelivered, markFailed, scheduleRetry, type ClaimedDelivery, type Lease } from '../db/deliveries.ts';
import { withDeadline } from '../db/deadline.ts';
import type { DecisionEvent, MailMessage, OutboxChannel } from '../db/schema.ts';
import {
  DELIVERY_CONCURRENCY,
  DELIVERY_FIRST_RETRY_MS,
  DELIVERY_GIVE_UP_AFTER_MS,
  DELIVERY_LEASE_MARGIN_MS,
  DELIVERY_MAX_RETRY_MS,
  DELIVERY_POLL_INTERVAL_MS,
} from '../limits.ts';
import type { Logger } from '../logger.ts';

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
   * The longest one delivery may take, in ms: past it, `signal` aborts it. The sender holds the row
   * for this plus {@link DELIVERY_LEASE_MARGIN_MS}.
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
   * @throws {@link PermanentDeliveryError} when the receiver refused it for good (an SMTP 5xx): it is
   *   not tried again; any other Error says why (a status, a network error, never the receiver's
   *   body): the sender keeps it as `last_error` and tries again later
   */
  deliver(delivery: Delivery, signal: AbortSignal): Promise<'sent' | 'written' | void>;
}

/** A receiver's final refusal (an SMTP 5xx, such as an unknown mailbox): the delivery is given up at once. */
export class PermanentDeliveryError extends Error {
  override name = 'PermanentDeliveryError';
}

/** A channel's lease, in ms: its deadline and {@link DELIVERY_LEASE_MARGIN_MS}, so no other instance claims a row while it is sent. */
export function leaseMsOf(deadlineMs: number): number {
  return deadlineMs + DELIVERY_LEASE_MARGIN_MS;
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

const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** The running outbox sender: `kick()` after a new submission, `stop()` on shutdown. */
export interface Outbox {
  /** Looks for due deliveries now instead of at the next poll. */
  kick(): void;
  /** Claims what is due into the free places; resolves once no delivery is in flight (tests). */
  runOnce(): Promise<void>;
  /** Stops polling, aborts the deliveries in flight (each is retried later, as the same message) and waits for them. */
  stop(): Promise<void>;
}

/**
 * Starts sending the outbox (`deliveries`), one mechanism for every channel given: every
 * {@link DELIVERY_POLL_INTERVAL_MS}, and whenever a delivery ends, it claims due rows of those channels
 * into the free places of {@link DELIVERY_CONCURRENCY}, each under its own lease (its channel's deadline
 * and {@link DELIVERY_LEASE_MARGIN_MS}; `for update skip locked`: several server instances never send one
 * delivery at the same time), so a slow delivery holds back no other. Each is delivered through its
 * channel: rendered once at the first attempt and kept with the row (a retry is the same message),
 * aborted at its channel's deadline (the connection closed), marked delivered on success (the kept copy
 * cleared), and otherwise given its next attempt ({@link retryDelayMs}); after
 * {@link DELIVERY_GIVE_UP_AFTER_MS} of failures it gives up and logs an error. Nothing is lost on a
 * restart: the schedule is in the database. A row of a channel this instance does not have (a webhook no
 * longer configured) waits.
 * @param options - `firstRetryMs` shortens the back-off, `deliveryDeadlineMs` every channel's deadline, in tests
 */
export function startOutbox(options: {
  db: Db;
  channels: Channel[];
  logger: Logger;
  firstRetryMs?: number;
  pollIntervalMs?: number;
  deliveryDeadlineMs?: number;
}): Outbox {
  const { db, logger } = options;
  const channels = new Map(options.channels.map((channel) => [channel.name, channel]));
  const names = [...channels.keys()];
  const deadlineOf = (channel: Channel) => options.deliveryDeadlineMs ?? channel.deadlineMs;
  const inFlight = new Map<Promise<void>, AbortController>();
  let claiming: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const send = async (row: ClaimedDelivery, signal: AbortSignal): Promise<void> => {
    const covered = (typeof row.covered === 'string' ? (JSON.parse(row.covered) as Exclude<ClaimedDelivery['covered'], string>) : row.covered).map(
      (request): CoveredRequest => ({ id: request.id, receivedAt: new Date(request.received_at), dueAt: asDate(request.due_at), body: request.body }),
    );
    const delivery: Delivery = {
      id: row.id,
      channel: row.channel,
      message: row.message,
      event: row.event,
      payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
      createdAt: asDate(row.created_at)!,
      attachSubject: row.attach_subject,
      record: row.request_types === null
        ? null
        : { outcome: row.outcome, outcomeReason: row.outcome_reason, extensionReason: row.extension_reason, requestTypes: row.request_types },
      attempts: row.attempts,
      submissionId: row.submission_id,
      kind: row.kind,
      email: row.email,
      receivedAt: asDate(row.received_at)!,
      dueAt: asDate(row.record_due_at ?? row.due_at),
      body: typeof row.body === 'string' ? (JSON.parse(row.body) as SubmissionBody) : row.body,
      covered,
      rendered: row.rendered,
    };
    const about = { deliveryId: row.id, submissionId: row.submission_id, channel: row.channel, message: row.message ?? undefined, event: row.event ?? undefined, attempts: row.attempts };
    // every bookkeeping update holds only while this lease does (server/db/deliveries.ts)
    const mine: Lease = { id: row.id, lockedUntil: asDate(row.locked_until)! };
    const channel = channels.get(row.channel)!;
    let problem: string;
    let permanent: boolean;
    // the deadline aborts the delivery (the mail channel closes its SMTP connection), as does stop()
    const deadline = new AbortController();
    const aborted = AbortSignal.any([signal, deadline.signal]);
    try {
      const outcome = await withDeadline(
        (async () => {
          if (channel.render && delivery.rendered === null) {
            // rendered once: kept before it is sent, so that whatever happens next, a retry is this message
            const rendered = await channel.render(delivery);
            if (!(await keepRendered(db, mine, rendered))) throw new Error('the lease ended before the message was kept');
            delivery.rendered = rendered;
          }
          aborted.throwIfAborted();
          return channel.deliver(delivery, aborted);
        })(),
        deadlineOf(channel),
      ).finally(() => deadline.abort());
      await markDelivered(db, mine);
      if (row.message === 'privacy-confirmation' && outcome !== 'written') {
        // 11 CCR §7101: the record keeps when the confirmation of receipt went out (a file is not mail)
        await markConfirmationSent(db, covered.map((request) => request.id));
      }
      logger.info(about, 'delivered');
      return;
    } catch (error) {
      problem = problemOf(error);
      permanent = error instanceof PermanentDeliveryError;
    }
    if (permanent || Date.now() - delivery.createdAt.getTime() >= DELIVERY_GIVE_UP_AFTER_MS) {
      // the kept copy holds a live verification token: cleared once it will never be sent
      await markFailed(db, mine, problem);
      logger.error({ ...about, problem }, permanent ? 'delivery refused for good' : 'delivery given up after 3 days');
      return;
    }
    const delay = retryDelayMs(row.attempts, Math.random, options.firstRetryMs);
    // the database's clock, the one the claim compares with
    await scheduleRetry(db, mine, delay, problem);
    logger.warn({ ...about, problem, retryInMs: delay }, 'not delivered; will retry');
  };

  /** Claims up to `places` due rows, each under its channel's lease. */
  const claim = (places: number): Promise<ClaimedDelivery[]> =>
    claimDeliveries(db, places, options.channels.map((channel) => ({ name: channel.name, leaseSeconds: leaseMsOf(deadlineOf(channel)) / 1000 })));

  const start = (row: ClaimedDelivery) => {
    const controller = new AbortController();
    const sending: Promise<void> = send(row, controller.signal)
      .catch((err: unknown) => logger.error({ err, deliveryId: row.id }, 'outbox bookkeeping failed'))
      .finally(() => {
        inFlight.delete(sending);
        if (!stopped) void fill();
      });
    inFlight.set(sending, controller);
  };

  /** Claims due rows into the free places, again while a claim filled them all (a backlog) or a kick came meanwhile. */
  const fill = (): Promise<void> => {
    if (stopped || names.length === 0) return Promise.resolve();
    if (claiming) {
      again = true;
      return claiming;
    }
    claiming = (async () => {
      // past this line only once `claiming` is set: a loop that ended at once would otherwise reset it
      // before it was set, and every later fill would wait on a promise already settled
      await Promise.resolve();
      try {
        let places: number;
        let claimed: number;
        do {
          again = false;
          places = DELIVERY_CONCURRENCY - inFlight.size;
          if (places <= 0) break;
          const rows = await claim(places);
          claimed = rows.length;
          for (const row of rows) start(row);
        } while ((again || claimed === places) && !stopped);
      } catch (err) {
        logger.error({ err }, 'outbox could not be read');
      } finally {
        claiming = undefined;
      }
    })();
    return claiming;
  };

  const runOnce = async (): Promise<void> => {
    await fill();
    while (inFlight.size > 0 || claiming) await Promise.all([claiming, ...inFlight.keys()]);
  };

  const timer = setInterval(() => void fill(), options.pollIntervalMs ?? DELIVERY_POLL_INTERVAL_MS);
  timer.unref();
  return {
    kick: () => void fill(),
    runOnce,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await claiming;
      for (const controller of inFlight.values()) controller.abort(new Error('the server is stopping'));
      await Promise.all(inFlight.keys());
    },
  };
}
