import { sql } from 'drizzle-orm';
import type { SubmissionBody, SubmissionKind } from '#shared/submission';
import { rowsOf, type Db } from './db/database.ts';
import { notifications } from './db/schema.ts';
import {
  NOTIFY_BATCH_SIZE,
  NOTIFY_FIRST_RETRY_MS,
  NOTIFY_GIVE_UP_AFTER_MS,
  NOTIFY_LEASE_MS,
  NOTIFY_MAX_RETRY_MS,
  NOTIFY_POLL_INTERVAL_MS,
  NOTIFY_TIMEOUT_MS,
} from './limits.ts';
import type { Logger } from './logger.ts';

/**
 * The JSON a webhook receives: Slack-compatible (`text`, shown as plain text: `mrkdwn: false`, no link
 * previews), plus the request's id and kind.
 */
export interface NotificationBody {
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
 * {@link escapeSlackText}.
 */
export function notificationText(kind: SubmissionKind, data: SubmissionBody['data'], dueAt: Date | null): string {
  if (kind === 'privacy') {
    const types = /^Request types: (.*)$/m.exec(data.useCaseDescription)?.[1] ?? 'None selected';
    return `Privacy request (${escapeSlackText(types)}) — due ${dueAt ? dueAt.toISOString().slice(0, 10) : 'unknown'}`;
  }
  const [name, role, company, volume] = [data.fullName, data.roleTitle, data.companyName, data.estimatedMonthlyQueries].map(escapeSlackText);
  return `New invite request: ${name} (${role}, ${company}) — ${volume} queries/month`;
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
  kind: SubmissionKind;
  body: SubmissionBody | string;
  due_at: Date | string | null;
};

const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** The running outbox sender: `kick()` after a new submission, `stop()` on shutdown. */
export interface Notifier {
  /** Looks for due notifications now instead of at the next poll. */
  kick(): void;
  /** Sends what is due once; resolves when those sends have ended (tests, and the poll loop). */
  runOnce(): Promise<void>;
  /** Stops polling and waits for the sends in flight (at most {@link NOTIFY_TIMEOUT_MS}). */
  stop(): Promise<void>;
}

/**
 * Starts sending the outbox (`notifications`) to `webhookUrl`: every {@link NOTIFY_POLL_INTERVAL_MS},
 * and again at once while a full batch came back, it takes up to {@link NOTIFY_BATCH_SIZE} due rows under a lease ({@link NOTIFY_LEASE_MS}, `for update
 * skip locked`: several server instances never send one delivery at the same time), POSTs each with
 * `X-Sonde-Delivery: <id>` and a {@link NOTIFY_TIMEOUT_MS} time-out, marks a 2xx delivered, and
 * otherwise schedules the next attempt ({@link retryDelayMs}); after {@link NOTIFY_GIVE_UP_AFTER_MS} of
 * failures it gives up and logs an error. Nothing is lost on a restart: the schedule is in the database.
 * @param options - `firstRetryMs` shortens the back-off in tests
 */
export function startNotifier(options: {
  db: Db;
  webhookUrl: string;
  logger: Logger;
  firstRetryMs?: number;
  pollIntervalMs?: number;
}): Notifier {
  const { db, webhookUrl, logger } = options;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const send = async (row: Claimed): Promise<void> => {
    const body = typeof row.body === 'string' ? (JSON.parse(row.body) as SubmissionBody) : row.body;
    const payload: NotificationBody = {
      text: notificationText(row.kind, body.data, asDate(row.due_at)),
      mrkdwn: false,
      unfurl_links: false,
      unfurl_media: false,
      submissionId: row.submission_id,
      kind: row.kind,
    };
    let problem: string;
    try {
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sonde-delivery': row.id },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.ok) {
        await db.update(notifications).set({ deliveredAt: sql`now()`, lockedUntil: null, lastError: null }).where(sql`${notifications.id} = ${row.id}`);
        logger.info({ deliveryId: row.id, submissionId: row.submission_id, attempts: row.attempts }, 'notification delivered');
        return;
      }
      problem = `HTTP ${response.status}`;
    } catch (error) {
      problem = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const createdAt = asDate(row.created_at)!;
    if (Date.now() - createdAt.getTime() >= NOTIFY_GIVE_UP_AFTER_MS) {
      await db.update(notifications).set({ failedAt: sql`now()`, lockedUntil: null, lastError: problem }).where(sql`${notifications.id} = ${row.id}`);
      logger.error({ deliveryId: row.id, submissionId: row.submission_id, attempts: row.attempts, problem }, 'notification given up after 3 days');
      return;
    }
    const delay = retryDelayMs(row.attempts, Math.random, options.firstRetryMs);
    await db
      .update(notifications)
      .set({ nextAttemptAt: new Date(Date.now() + delay), lockedUntil: null, lastError: problem })
      .where(sql`${notifications.id} = ${row.id}`);
    logger.warn({ deliveryId: row.id, attempts: row.attempts, problem, retryInMs: delay }, 'notification not delivered; will retry');
  };

  /** Claims one batch of due rows and sends them; resolves with how many it claimed, once all are sent. */
  const sendDue = async (): Promise<number> => {
    const result = await db.execute(sql`
      with due as (
        select id from ${notifications}
        where delivered_at is null and failed_at is null and next_attempt_at <= now()
          and (locked_until is null or locked_until < now())
        order by next_attempt_at
        limit ${NOTIFY_BATCH_SIZE}
        for update skip locked
      ),
      claimed as (
        update ${notifications} n set locked_until = now() + make_interval(secs => ${NOTIFY_LEASE_MS / 1000}::int), attempts = n.attempts + 1
        from due where n.id = due.id
        returning n.id, n.submission_id, n.attempts, n.created_at
      )
      select c.id, c.submission_id, c.attempts, c.created_at, s.kind, s.body, s.due_at
      from claimed c join submissions s on s.id = c.submission_id`);
    const rows = rowsOf<Claimed>(result);
    await Promise.all(rows.map((row) => send(row).catch((err: unknown) => logger.error({ err, deliveryId: row.id }, 'notification bookkeeping failed'))));
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
        logger.error({ err }, 'notification outbox could not be read');
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
