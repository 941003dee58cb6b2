import type { Db } from '../db/database.ts';
import { claimDeliveries, keepRendered, markConfirmationSent, markDelivered, markFailed, renewLease, scheduleRetry } from '../db/deliveries.ts';
import type { ClaimedDelivery, ClaimedMemberDelivery, Lease } from '../db/deliveries.ts';
import { withDeadline } from '../db/deadline.ts';
import {
  DELIVERY_CONCURRENCY,
  DELIVERY_GIVE_UP_AFTER_MS,
  DELIVERY_HEARTBEAT_MS,
  DELIVERY_LEASE_MS,
  DELIVERY_POLL_INTERVAL_MS,
  TEAM_ENROLLMENT_TTL_MS,
} from '../limits.ts';
import type { Logger } from '../logger.ts';
import type { MetricsRecorder } from '../metrics.ts';
import type { Channel } from './channel.ts';
import { asDate, deliveryOf } from './deliveryRow.ts';
import { PermanentDeliveryError, problemOf, retryDelayMs } from './failures.ts';

/** One claimed row's work: what the log says of it, its channel, and what sends it (then what follows a success). */
interface Job {
  about: Record<string, unknown>;
  channel: Channel;
  createdAt: Date;
  run(lease: Lease, signal: AbortSignal): Promise<() => Promise<void>>;
}

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
 * into the free places of {@link DELIVERY_CONCURRENCY}, each under its own lease (`for update skip
 * locked`: several server instances never send one delivery at the same time), so a slow delivery holds
 * back no other. A lease is short ({@link DELIVERY_LEASE_MS}) and renewed every
 * {@link DELIVERY_HEARTBEAT_MS} while its delivery is in flight, so a slow delivery keeps its row up to its
 * channel's deadline, and the rows of a sender that died are claimed again within a lease of its death.
 * A sender that can no longer renew a lease (another claimed the row, or the database has not answered for
 * a whole lease) aborts that delivery: another instance may be sending it. Each is delivered through its
 * channel: rendered once at the first attempt and kept with the row (a retry is the same message),
 * aborted at its channel's deadline (the connection closed), marked delivered on success (the kept copy
 * cleared), and otherwise given its next attempt ({@link retryDelayMs}); after
 * {@link DELIVERY_GIVE_UP_AFTER_MS} of failures it gives up and logs an error. Nothing is lost on a
 * restart: the schedule is in the database. A row of a channel this instance does not have (a webhook no
 * longer configured) waits. A team member's row (an enrollment link's mail, the digest, an overdue alert,
 * rendered when it was written) is sent as it is through the mail channel's `deliverRendered`; an
 * enrollment link's is given up once its link has expired.
 * @param options - `metrics`: each attempt's outcome counted by channel (server/metrics.ts); `firstRetryMs` shortens the back-off, `deliveryDeadlineMs` every channel's deadline,
 *   `leaseMs` and `heartbeatMs` the lease and its renewal, in tests
 */
export function startOutbox(options: {
  db: Db;
  channels: Channel[];
  logger: Logger;
  metrics?: Pick<MetricsRecorder, 'delivery'>;
  firstRetryMs?: number;
  pollIntervalMs?: number;
  deliveryDeadlineMs?: number;
  leaseMs?: number;
  heartbeatMs?: number;
}): Outbox {
  const { db, logger } = options;
  const channels = new Map(options.channels.map((channel) => [channel.name, channel]));
  const names = [...channels.keys()];
  const deadlineOf = (channel: Channel) => options.deliveryDeadlineMs ?? channel.deadlineMs;
  const leaseMs = options.leaseMs ?? DELIVERY_LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? DELIVERY_HEARTBEAT_MS;
  const inFlight = new Map<Promise<void>, AbortController>();
  let claiming: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  /** A request's delivery: rendered at its first attempt and kept, then delivered through its channel. */
  const requestJob = (row: ClaimedDelivery): Job => {
    const delivery = deliveryOf(row);
    const channel = channels.get(row.channel)!;
    return {
      about: { deliveryId: row.id, submissionId: row.submission_id, channel: row.channel, message: row.message ?? undefined, event: row.event ?? undefined, attempts: row.attempts },
      channel,
      createdAt: delivery.createdAt,
      run: async (lease, signal) => {
        if (channel.render && delivery.rendered === null) {
          // rendered once: kept before it is sent, so that whatever happens next, a retry is this message
          const rendered = await channel.render(delivery);
          if (!(await keepRendered(db, lease, rendered))) throw new Error('the lease ended before the message was kept');
          delivery.rendered = rendered;
        }
        signal.throwIfAborted();
        const outcome = await channel.deliver(delivery, signal);
        return async () => {
          if (row.message === 'privacy-confirmation' && outcome !== 'written') {
            // 11 CCR §7101: the record keeps when the confirmation of receipt went out (a file is not mail)
            await markConfirmationSent(db, delivery.covered.map((request) => request.id));
          }
        };
      },
    };
  };

  /**
   * A team member's mail (an enrollment link, the daily digest, an overdue alert): rendered when it was
   * written, sent as it is; an enrollment link's is given up once its link has expired
   * ({@link TEAM_ENROLLMENT_TTL_MS}), since it would carry a dead link.
   */
  const memberJob = (row: ClaimedMemberDelivery): Job => {
    const channel = channels.get(row.channel)!;
    const createdAt = asDate(row.created_at)!;
    return {
      about: { deliveryId: row.id, memberId: row.member_id, channel: row.channel, message: row.message, attempts: row.attempts },
      channel,
      createdAt,
      run: async (_lease, signal) => {
        if (row.message === 'team-enrollment' && Date.now() - createdAt.getTime() >= TEAM_ENROLLMENT_TTL_MS) throw new PermanentDeliveryError('the enrollment link expired');
        if (row.rendered === null || !channel.deliverRendered) throw new PermanentDeliveryError('no rendered message');
        await channel.deliverRendered({ id: row.id, to: row.member_email, raw: row.rendered }, signal);
        return async () => {};
      },
    };
  };

  /**
   * Renews `lease` every `heartbeatMs` until the returned function is called. When a renewal finds the
   * row claimed by another sender, or no renewal has held for a whole lease (the database not answering:
   * another instance may claim the row by now), it aborts `lost` with the reason.
   */
  const holdLease = (lease: Lease, lost: AbortController): (() => void) => {
    const runOut = () => lost.abort(new Error('the lease ran out: no renewal held'));
    let expiry = setTimeout(runOut, leaseMs);
    let renewing = false;
    let released = false;
    const beat = setInterval(() => {
      if (renewing || lost.signal.aborted) return;
      renewing = true;
      const asked = performance.now();
      renewLease(db, lease, leaseMs)
        .then(
          (held) => {
            if (released) return;
            if (!held) return lost.abort(new Error('the lease was lost: another sender claimed the delivery'));
            // the new lease counts from when it was asked for at the latest
            clearTimeout(expiry);
            expiry = setTimeout(runOut, leaseMs - (performance.now() - asked));
          },
          (err: unknown) => logger.warn({ err, deliveryId: lease.id }, 'lease not renewed; will try again'),
        )
        .finally(() => (renewing = false));
    }, heartbeatMs);
    return () => {
      released = true;
      clearInterval(beat);
      clearTimeout(expiry);
    };
  };

  const send = async (row: ClaimedDelivery | ClaimedMemberDelivery, signal: AbortSignal): Promise<void> => {
    const job = row.member_id === null ? requestJob(row) : memberJob(row);
    const { about, channel } = job;
    // every bookkeeping update holds only while this lease does (server/db/deliveries.ts)
    const mine: Lease = { id: row.id, attempts: row.attempts };
    let problem: string;
    let permanent: boolean;
    // the deadline aborts the delivery (the mail channel closes its SMTP connection), as do stop() and a lost lease
    const deadline = new AbortController();
    const lost = new AbortController();
    const aborted = AbortSignal.any([signal, deadline.signal, lost.signal]);
    const release = holdLease(mine, lost);
    try {
      const after = await withDeadline(job.run(mine, aborted), deadlineOf(channel)).finally(() => deadline.abort());
      await markDelivered(db, mine);
      options.metrics?.delivery(channel.name, 'delivered');
      await after();
      logger.info(about, 'delivered');
      return;
    } catch (error) {
      problem = problemOf(error);
      permanent = error instanceof PermanentDeliveryError;
    } finally {
      release();
    }
    if (permanent || Date.now() - job.createdAt.getTime() >= DELIVERY_GIVE_UP_AFTER_MS) {
      // the kept copy holds a live verification token: cleared once it will never be sent
      await markFailed(db, mine, problem);
      options.metrics?.delivery(channel.name, 'given_up');
      logger.error({ ...about, problem }, permanent ? 'delivery refused for good' : 'delivery given up after 3 days');
      return;
    }
    const delay = retryDelayMs(row.attempts, Math.random, options.firstRetryMs);
    // the database's clock, the one the claim compares with
    await scheduleRetry(db, mine, delay, problem);
    options.metrics?.delivery(channel.name, 'retry');
    logger.warn({ ...about, problem, retryInMs: delay }, 'not delivered; will retry');
  };

  /** Claims up to `places` due rows, each under its own lease. */
  const claim = (places: number): Promise<Array<ClaimedDelivery | ClaimedMemberDelivery>> => claimDeliveries(db, places, names, leaseMs);

  const start = (row: ClaimedDelivery | ClaimedMemberDelivery) => {
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
