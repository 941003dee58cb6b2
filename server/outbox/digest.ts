import { alertOverdue, digestDone, queueDigest, type Digest, type DigestOutcome, type ReminderMailer, type ReminderRequest } from '../db/digest.ts';
import type { Db } from '../db/database.ts';
import { inTeamTransaction } from '../db/teamTransaction.ts';
import { DIGEST_CHECK_INTERVAL_MS } from '../limits.ts';
import type { Logger } from '../logger.ts';
import { buildMail } from './mail.ts';
import { teamDigest, teamOverdue } from './messages/teamDigest.ts';

/**
 * The renderers of the team's reminders: each member's copy of the daily digest and of an overdue alert,
 * rendered whole (RFC 5322) when its outbox row is written, as an enrollment link's mail is
 * (server/outbox/enrollmentMail.ts), and sent as it is by the outbox.
 * @param from - the site's sender (`SONDE_MAIL_FROM`)
 * @param siteUrl - the site's public origin, for the console's links
 */
export function reminderMailers(from: string, siteUrl: string): { digest: ReminderMailer<Digest>; overdue: ReminderMailer<ReminderRequest[]> } {
  return {
    digest: (digest, mail) => buildMail(from, mail.deliveryId, { to: mail.to, ...teamDigest(digest, siteUrl) }),
    overdue: (requests, mail) => buildMail(from, mail.deliveryId, { to: mail.to, ...teamOverdue(requests, siteUrl) }),
  };
}

/** What one check did: the requests newly alerted, and the digest's outcome (undefined: before the hour, or done already). */
export interface ReminderCheck {
  alerted: ReminderRequest[];
  digest: DigestOutcome | undefined;
}

/**
 * One check of the team's reminders at `now`, as every server runs it at start and then every
 * {@link DIGEST_CHECK_INTERVAL_MS}: first the overdue alert (each open privacy request past its due moment,
 * once), then, from `hour` (UTC) on, the day's digest when its day has no row yet, which also catches up a
 * digest missed while no server ran at the hour: a server started later the same day, 23:00 included,
 * sends that day's digest (late rather than never; the next day's comes at its hour). Each is one write
 * transaction of the team's (server/db/teamTransaction.ts), the day's row or the alert's rows inserted
 * with the mails they queue.
 * @param hour - `SONDE_TEAM_DIGEST_HOUR`, 0–23
 */
export async function checkReminders(db: Db, now: Date, hour: number, mailers: ReturnType<typeof reminderMailers>): Promise<ReminderCheck> {
  const alerted = await inTeamTransaction(db, 'write', (tx) => alertOverdue(tx, now, mailers.overdue));
  if (now.getUTCHours() < hour || (await digestDone(db, now))) return { alerted, digest: undefined };
  const digest = await inTeamTransaction(db, 'write', (tx) => queueDigest(tx, now, 'schedule', mailers.digest));
  return { alerted, digest };
}

/** The running reminders: `stop()` on shutdown. */
export interface Reminders {
  /** Stops the timer and waits for a check under way. */
  stop(): Promise<void>;
}

/**
 * Runs {@link checkReminders} at start and then every {@link DIGEST_CHECK_INTERVAL_MS}, each check
 * scheduled by a `setTimeout` once the one before has ended, so two never overlap. No scheduling library:
 * the rule "once a day, and a missed day caught up" lives in the database (the day's row), which a cron
 * expression in one process could not hold across instances and restarts; what is left is a timer to the
 * next check. A failed check is logged and tried again at the next. `kick` wakes the outbox at once once
 * mail was queued.
 */
export function startReminders(options: {
  db: Db;
  hour: number;
  from: string;
  siteUrl: () => string;
  logger: Logger;
  kick: () => void;
  now?: () => Date;
  intervalMs?: number;
}): Reminders {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const check = async () => {
    try {
      const { alerted, digest } = await checkReminders(options.db, now(), options.hour, reminderMailers(options.from, options.siteUrl()));
      if (alerted.length > 0) options.logger.info({ overdueAlerted: alerted.map((request) => request.id) }, 'overdue alert queued');
      if (digest && digest.status !== 'done already') options.logger.info({ digest: digest.status, day: digest.digest.day, mails: digest.status === 'queued' ? digest.mails : 0 }, 'team digest');
      if (alerted.length > 0 || digest?.status === 'queued') options.kick();
    } catch (err) {
      options.logger.error({ err }, 'team reminders check failed');
    }
  };
  const next = () => {
    if (stopped) return;
    running = check().finally(() => {
      if (stopped) return;
      timer = setTimeout(next, options.intervalMs ?? DIGEST_CHECK_INTERVAL_MS);
      timer.unref();
    });
  };
  next();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
