import { sql } from 'drizzle-orm';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { rowsOf, type Db } from '../db/database.ts';
import { withDeadline } from '../deadline.ts';
import { notifications, privacyRecords, type MailMessage, type OutboxChannel } from '../db/schema.ts';
import {
  NOTIFY_BATCH_SIZE,
  NOTIFY_FIRST_RETRY_MS,
  NOTIFY_GIVE_UP_AFTER_MS,
  NOTIFY_LEASE_MS,
  NOTIFY_MAX_RETRY_MS,
  NOTIFY_POLL_INTERVAL_MS,
} from '../limits.ts';
import type { Logger } from '../logger.ts';

/** One row of the outbox as a channel delivers it, with what it needs of its request. */
export interface Delivery {
  /** the delivery id: `X-Sonde-Delivery` of a webhook, the local part of a mail's `Message-ID` */
  id: string;
  channel: OutboxChannel;
  /** the mail channel's message; null for the webhook */
  message: MailMessage | null;
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
}

/** A way of delivering: the webhook (server/outbox/webhook.ts) or mail (server/outbox/mail.ts). */
export interface Channel {
  name: OutboxChannel;
  /**
   * Delivers one row, the same way on every attempt, within {@link DELIVERY_DEADLINE_MS}.
   * @returns `sent` once the receiver took it, or `written` when the mail channel wrote a file instead
   *   (no SMTP server set): then nobody was mailed, and the record of 11 CCR §7101 does not say so
   * @throws {@link PermanentDeliveryError} when the receiver refused it for good (an SMTP 5xx): it is
   *   not tried again; any other Error says why (a status, a network error, never the receiver's
   *   body): the sender keeps it as `last_error` and tries again later
   */
  deliver(delivery: Delivery): Promise<'sent' | 'written' | void>;
}

/** A receiver's final refusal (an SMTP 5xx, such as an unknown mailbox): the delivery is given up at once. */
export class PermanentDeliveryError extends Error {
  override name = 'PermanentDeliveryError';
}

/**
 * The longest one delivery may take, in ms: well inside the lease ({@link NOTIFY_LEASE_MS}), so that no
 * other instance claims a row while it is being sent.
 */
export const DELIVERY_DEADLINE_MS = NOTIFY_LEASE_MS / 2;

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
export function retryDelayMs(attempts: number, random: () => number = Math.random, firstMs = NOTIFY_FIRST_RETRY_MS): number {
  const base = Math.min(NOTIFY_MAX_RETRY_MS, firstMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

type Claimed = {
  id: string;
  locked_until: Date | string;
  submission_id: string;
  attempts: number;
  created_at: Date | string;
  channel: OutboxChannel;
  message: MailMessage | null;
  attach_subject: boolean;
  kind: SubmissionKind;
  email: string;
  outcome: string | null;
  outcome_reason: string | null;
  extension_reason: string | null;
  /** as JSON, which both drivers parse: a raw `text[]` comes back from PGlite as its literal `{a,b}` */
  request_types: string[] | null;
  record_due_at: Date | string | null;
  received_at: Date | string;
  body: SubmissionBody | string;
  due_at: Date | string | null;
};

const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));


/** The running outbox sender: `kick()` after a new submission, `stop()` on shutdown. */
export interface Outbox {
  /** Looks for due deliveries now instead of at the next poll. */
  kick(): void;
  /** Sends what is due once; resolves when those sends have ended (tests, and the poll loop). */
  runOnce(): Promise<void>;
  /** Stops polling and waits for the sends in flight. */
  stop(): Promise<void>;
}

/**
 * Starts sending the outbox (`notifications`), one mechanism for every channel given: every
 * {@link NOTIFY_POLL_INTERVAL_MS}, and again at once while a full batch came back, it takes up to
 * {@link NOTIFY_BATCH_SIZE} due rows of those channels under a lease ({@link NOTIFY_LEASE_MS}, `for
 * update skip locked`: several server instances never send one delivery at the same time), delivers
 * each through its channel, marks a success delivered, and otherwise schedules the next attempt
 * ({@link retryDelayMs}); after {@link NOTIFY_GIVE_UP_AFTER_MS} of failures it gives up and logs an
 * error. Nothing is lost on a restart: the schedule is in the database. A row of a channel this
 * instance does not have (a webhook no longer configured) waits.
 * @param options - `firstRetryMs` shortens the back-off, `deliveryDeadlineMs` the time one delivery may
 *   take ({@link DELIVERY_DEADLINE_MS}), in tests
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
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const send = async (row: Claimed): Promise<void> => {
    const delivery: Delivery = {
      id: row.id,
      channel: row.channel,
      message: row.message,
      attachSubject: row.attach_subject,
      record:
        row.request_types === null
          ? null
          : {
              outcome: row.outcome,
              outcomeReason: row.outcome_reason,
              extensionReason: row.extension_reason,
              requestTypes: row.request_types,
            },
      attempts: row.attempts,
      submissionId: row.submission_id,
      kind: row.kind,
      email: row.email,
      receivedAt: asDate(row.received_at)!,
      dueAt: asDate(row.record_due_at ?? row.due_at),
      body: typeof row.body === 'string' ? (JSON.parse(row.body) as SubmissionBody) : row.body,
    };
    const about = { deliveryId: row.id, submissionId: row.submission_id, channel: row.channel, message: row.message ?? undefined, attempts: row.attempts };
    // Every bookkeeping update holds only while this sender's lease does: past it, another instance may
    // have claimed the row, and its outcome is the one that counts.
    // (compared to the millisecond: the driver's Date has no microseconds)
    const mine = sql`${notifications.id} = ${row.id} and date_trunc('milliseconds', ${notifications.lockedUntil}) = ${asDate(row.locked_until)!.toISOString()}::timestamptz`;
    let problem: string;
    let permanent: boolean;
    try {
      const outcome = await withDeadline(channels.get(row.channel)!.deliver(delivery), options.deliveryDeadlineMs ?? DELIVERY_DEADLINE_MS);
      await db.update(notifications).set({ deliveredAt: sql`now()`, lockedUntil: null, lastError: null }).where(mine);
      if (row.message === 'privacy-confirmation' && outcome !== 'written') {
        // 11 CCR §7101: the record keeps when the confirmation of receipt went out (a file is not mail)
        await db
          .update(privacyRecords)
          .set({ confirmationSentAt: sql`coalesce(${privacyRecords.confirmationSentAt}, now())` })
          .where(sql`${privacyRecords.id} = ${row.submission_id}`);
      }
      logger.info(about, 'delivered');
      return;
    } catch (error) {
      problem = problemOf(error);
      permanent = error instanceof PermanentDeliveryError;
    }
    const createdAt = asDate(row.created_at)!;
    if (permanent || Date.now() - createdAt.getTime() >= NOTIFY_GIVE_UP_AFTER_MS) {
      await db.update(notifications).set({ failedAt: sql`now()`, lockedUntil: null, lastError: problem }).where(mine);
      logger.error({ ...about, problem }, permanent ? 'delivery refused for good' : 'delivery given up after 3 days');
      return;
    }
    const delay = retryDelayMs(row.attempts, Math.random, options.firstRetryMs);
    // the database's clock, the one the claim compares with
    await db
      .update(notifications)
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})`, lockedUntil: null, lastError: problem })
      .where(mine);
    logger.warn({ ...about, problem, retryInMs: delay }, 'not delivered; will retry');
  };

  /** Claims one batch of due rows and sends them; resolves with how many it claimed, once all are sent. */
  const sendDue = async (): Promise<number> => {
    if (names.length === 0) return 0;
    const result = await db.execute(sql`
      with due as (
        select id from ${notifications}
        where delivered_at is null and failed_at is null and next_attempt_at <= now()
          and (locked_until is null or locked_until < now())
          and channel in (${sql.join(names.map((name) => sql`${name}`), sql`, `)})
        order by next_attempt_at
        limit ${NOTIFY_BATCH_SIZE}
        for update skip locked
      ),
      claimed as (
        update ${notifications} n set locked_until = now() + make_interval(secs => ${NOTIFY_LEASE_MS / 1000}::int), attempts = n.attempts + 1
        from due where n.id = due.id
        returning n.id, n.submission_id, n.attempts, n.created_at, n.channel, n.message, n.attach_subject, n.locked_until
      )
      select c.id, c.submission_id, c.attempts, c.created_at, c.channel, c.message, c.attach_subject, c.locked_until,
        s.kind, s.email, s.received_at, s.body, s.due_at,
        r.outcome, r.outcome_reason, r.extension_reason, array_to_json(r.request_types) as request_types, r.due_at as record_due_at
      from claimed c join submissions s on s.id = c.submission_id left join privacy_records r on r.id = c.submission_id`);
    const rows = rowsOf<Claimed>(result);
    await Promise.all(rows.map((row) => send(row).catch((err: unknown) => logger.error({ err, deliveryId: row.id }, 'outbox bookkeeping failed'))));
    return rows.length;
  };

  const runOnce = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        // A full batch may have more behind it (a backlog after an outage): take the next one at once.
        let claimed: number;
        do {
          again = false;
          claimed = await sendDue();
        } while ((again || claimed === NOTIFY_BATCH_SIZE) && !stopped);
      } catch (err) {
        logger.error({ err }, 'outbox could not be read');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const timer = setInterval(() => void runOnce(), options.pollIntervalMs ?? NOTIFY_POLL_INTERVAL_MS);
  timer.unref();
  return {
    kick: () => void runOnce(),
    runOnce,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
