import { sql } from 'drizzle-orm';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { rowsOf, type Db } from '../db/database.ts';
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
   * Delivers one row, the same way on every attempt.
   * @throws an Error whose message says why (a status, a network error, never the receiver's body):
   *   the sender keeps it as `last_error` and tries again later
   */
  deliver(delivery: Delivery): Promise<void>;
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
  request_types: string[] | string | null;
  record_due_at: Date | string | null;
  received_at: Date | string;
  body: SubmissionBody | string;
  due_at: Date | string | null;
};

const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** A `text[]` as a driver returns it: an array (postgres.js) or PostgreSQL's literal `{a,"b c"}` (PGlite through a raw query). */
function parseTextArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  if (inner === '') return [];
  return [...inner.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!));
}

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
 * @param options - `firstRetryMs` shortens the back-off in tests
 */
export function startOutbox(options: {
  db: Db;
  channels: Channel[];
  logger: Logger;
  firstRetryMs?: number;
  pollIntervalMs?: number;
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
              requestTypes: parseTextArray(row.request_types),
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
    let problem: string;
    try {
      await channels.get(row.channel)!.deliver(delivery);
      await db.update(notifications).set({ deliveredAt: sql`now()`, lockedUntil: null, lastError: null }).where(sql`${notifications.id} = ${row.id}`);
      if (row.message === 'privacy-confirmation') {
        // 11 CCR §7101: the record keeps when the confirmation of receipt went out
        await db
          .update(privacyRecords)
          .set({ confirmationSentAt: sql`coalesce(${privacyRecords.confirmationSentAt}, now())` })
          .where(sql`${privacyRecords.id} = ${row.submission_id}`);
      }
      logger.info(about, 'delivered');
      return;
    } catch (error) {
      // `HTTP 500` as the channel says it; a network error with its kind (`TimeoutError: …`)
      problem = !(error instanceof Error) ? String(error) : error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
    }
    const createdAt = asDate(row.created_at)!;
    if (Date.now() - createdAt.getTime() >= NOTIFY_GIVE_UP_AFTER_MS) {
      await db.update(notifications).set({ failedAt: sql`now()`, lockedUntil: null, lastError: problem }).where(sql`${notifications.id} = ${row.id}`);
      logger.error({ ...about, problem }, 'delivery given up after 3 days');
      return;
    }
    const delay = retryDelayMs(row.attempts, Math.random, options.firstRetryMs);
    await db
      .update(notifications)
      .set({ nextAttemptAt: new Date(Date.now() + delay), lockedUntil: null, lastError: problem })
      .where(sql`${notifications.id} = ${row.id}`);
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
        returning n.id, n.submission_id, n.attempts, n.created_at, n.channel, n.message, n.attach_subject
      )
      select c.id, c.submission_id, c.attempts, c.created_at, c.channel, c.message, c.attach_subject,
        s.kind, s.email, s.received_at, s.body, s.due_at,
        r.outcome, r.outcome_reason, r.extension_reason, r.request_types, r.due_at as record_due_at
      from claimed c join submissions s on s.id = c.submission_id left join privacy_records r on r.id = c.submission_id`);
    const rows = rowsOf<Claimed>(result);
    await Promise.all(rows.map((row) => send(row).catch((err: unknown) => logger.error({ err, deliveryId: row.id }, 'outbox bookkeeping failed'))));
    return rows.length;
  };

  const runOnce = (): Promise<void> => {
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
