// The Sonde server as a Node process: `npm start` (after the build), or in production, bundled by
// `npm run build` (scripts/serverBundle.mjs): `DATABASE_URL=postgres://… node --enable-source-maps
// build/server/server.mjs`. Settings: server/config.ts.
import { pathToFileURL } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './http/app.ts';
import { allowedOriginsOf, eventsEnabled, listenOriginOf, publicOriginOf, readConfig, type ServerConfig } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import {
  HEADERS_TIMEOUT_MS,
  PURGE_INTERVAL_MS,
  ANALYZE_CHECK_INTERVAL_MS,
  REQUEST_TIMEOUT_MS,
  SHUTDOWN_GRACE_MS,
  TIMEOUT_CHECK_INTERVAL_MS,
} from './limits.ts';
import { createLogger, createRefusalLog, type Logger } from './logger.ts';
import { createMetrics, serveMetrics, type MetricsListener } from './metrics.ts';
import { readSecurityHeaders } from './http/securityHeaders.ts';
import { mailChannel, removeMailFiles } from './outbox/mail.ts';
import type { Channel } from './outbox/channel.ts';
import { startOutbox } from './outbox/sender.ts';
import { webhookChannel } from './outbox/webhook.ts';
import { eventChannel } from './outbox/events.ts';
import { commandNameOf, runRequests } from './cli/requests.ts';
import { purgeExpired, requesterExport } from './db/retention.ts';
import { analyzePglite, vacuumPglite } from './db/maintenance.ts';
import { compactQueueCounts } from './db/queue.ts';
import { serveTeamChannel, type TeamAnswer, type TeamChannel, type TeamCommand } from './cli/teamChannel.ts';
import { issueVerificationToken } from './db/verificationLinks.ts';
import { startReminders } from './outbox/digest.ts';

/** A running server: its address, and how to stop it as SIGTERM does. */
export interface RunningServer {
  /** the address it listens on, `http://HOST:PORT` (`http://127.0.0.1:4173`) */
  url: string;
  /** the site's public origin (server/config.ts `publicOriginOf`): on loopback by default `http://localhost:PORT` */
  publicOrigin: string;
  database: Database;
  /** the metrics listener's address, `http://HOST:PORT` (its path: `/metrics`), when `SONDE_METRICS_LISTEN` is set */
  metricsUrl?: string;
  /** Stops accepting, lets in-flight requests finish (at most {@link SHUTDOWN_GRACE_MS}), closes the database. */
  stop(): Promise<void>;
}

/**
 * Opens the database (applying migrations), then listens; with `config.metricsListen`, serves the
 * metrics (server/metrics.ts) on that listener of their own too. Requests that trickle are cut: the whole
 * request must arrive within {@link REQUEST_TIMEOUT_MS} (Node answers 408 and closes the socket).
 * @param options - `timeouts`: the request/headers time-outs in ms, shortened by tests; `database`: an
 *   open database to use instead of `config.database` (tests); it is closed by `stop()` all the same;
 *   `reminders`: the team reminders' clock and check interval (server/outbox/digest.ts `startReminders`),
 *   or `false` for none (tests of other things, whose mail a check at a minute's tick would add to)
 * @throws when the database cannot be opened, the site is not built, or the port (or the metrics' port) is taken
 */
export async function startServer(
  config: ServerConfig,
  logger: Logger,
  options: {
    timeouts?: { requestMs: number; headersMs: number; databaseMs?: number };
    database?: Database;
    reminders?: { now?: () => Date; intervalMs?: number } | false;
  } = {},
): Promise<RunningServer> {
  const timeouts = options.timeouts ?? { requestMs: REQUEST_TIMEOUT_MS, headersMs: HEADERS_TIMEOUT_MS };
  const htmlHeaders = await readSecurityHeaders(config.distDir);
  const database = options.database ?? (await openDatabase(config.database));
  let listeningPort = config.port; // PORT=0: known once listening, before any request
  const publicOrigin = () => publicOriginOf(config, listeningPort);
  const channels: Channel[] = [mailChannel(
    config.mail,
    publicOrigin,
    (email) => requesterExport(database.db, email),
    (requestId) => issueVerificationToken(database.db, requestId),
  )];
  if (config.announceWebhookUrl) channels.push(webhookChannel(config.announceWebhookUrl));
  if (config.events) channels.push(eventChannel(config.events));
  // off unless asked for: nothing counted, nothing of prom-client's running
  const metrics = config.metricsListen ? createMetrics({ db: database.db, logger }) : undefined;
  const outbox = startOutbox({ db: database.db, channels, logger, metrics });
  // refused requests: one line per kind and minute, not one each (REFUSAL_LOG_INTERVAL_MS)
  const refusals = createRefusalLog(logger);
  const app = createApp({
    database,
    logger,
    refusals,
    outbox: {
      kick: outbox.kick,
      webhook: config.announceWebhookUrl !== undefined,
      events: eventsEnabled(config),
      requesterMail: true,
      teamMail: config.mail.teamEmail !== undefined,
    },
    site: { distDir: config.distDir, htmlHeaders },
    mail: config.mail,
    rateLimitPerMinute: config.rateLimitPerMinute,
    teamAuthAttemptsPerMinute: config.teamAuthAttemptsPerMinute,
    trustProxy: config.trustProxy,
    trustedProxyHops: config.trustedProxyHops,
    publicOrigin,
    allowedOrigins: () => allowedOriginsOf(config, listeningPort),
    databaseTimeoutMs: options.timeouts?.databaseMs,
    metrics,
  });
  let server: ServerType;
  let metricsListener: MetricsListener | undefined;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({
        fetch: app.fetch,
        port: config.port,
        hostname: config.host,
        serverOptions: {
          requestTimeout: timeouts.requestMs,
          headersTimeout: timeouts.headersMs,
          connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
        },
      }, () => resolve(s));
      s.once('error', reject);
    });
    if (metrics && config.metricsListen) {
      metricsListener = await serveMetrics(config.metricsListen, metrics, logger).catch(async (error: unknown) => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        throw error;
      });
    }
  } catch (error) {
    refusals.close();
    await outbox.stop();
    await database.close();
    throw error;
  }
  // The privacy policy's retention periods, kept without anyone remembering to: at start, then daily;
  // then the queue's counts folded (server/db/queue.ts: a console not opened for days does not fold them);
  // then, on PGlite, which has no autovacuum, the vacuum PostgreSQL would run by itself (server/db/maintenance.ts).
  const purge = () =>
    purgeExpired(database.db, new Date())
      .then(
        async ({ deliveryIds, ...gone }) => logger.info({ purged: { ...gone, mailFiles: await removeMailFiles(config.mail.emlDir, deliveryIds) } }, 'retention purge'),
        (err: unknown) => logger.error({ err }, 'retention purge failed'),
      )
      .then(() => compactQueueCounts(database.db))
      .catch((err: unknown) => logger.error({ err }, 'queue counts fold failed'))
      .then(() => vacuumPglite(database))
      .catch((err: unknown) => logger.error({ err }, 'vacuum failed'));
  void purge();
  const purgeTimer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
  purgeTimer.unref();
  // Between the daily vacuums, autovacuum's analyze rule, on PGlite only (server/db/maintenance.ts).
  const analyzeTimer =
    database.engine === 'pglite'
      ? setInterval(() => void analyzePglite(database).catch((err: unknown) => logger.error({ err }, 'analyze failed')), ANALYZE_CHECK_INTERVAL_MS)
      : undefined;
  analyzeTimer?.unref();
  // The team's command line on PGlite: only this process may open the directory, so it runs the
  // commands it is sent, each as one transaction of its own PGlite (server/cli/teamChannel.ts).
  let team: TeamChannel | undefined;
  if (!options.database && 'pgliteDir' in config.database && !config.database.pgliteDir.startsWith('memory://')) {
    const runTeamCommand = async ({ argv, user }: TeamCommand): Promise<TeamAnswer> => {
      const answer: TeamAnswer = { out: [], err: [], code: 0 };
      answer.code = await runRequests(argv, {
        connect: async () => ({ db: database.db, via: 'server', close: async () => {} }),
        out: (text) => void answer.out.push(text),
        err: (text) => void answer.err.push(text),
        user,
        mailDir: config.mail.emlDir,
        events: eventsEnabled(config),
        publicOrigin: publicOrigin(),
        mailFrom: config.mail.from,
        database: config.database,
      });
      logger.info({ teamCommand: commandNameOf(argv), code: answer.code }, 'team command'); // its arguments may name a person
      outbox.kick(); // the mail a command wrote (respond, extend) goes out now
      return answer;
    };
    try {
      team = await serveTeamChannel(config.database.pgliteDir, runTeamCommand);
    } catch (error) {
      // e.g. a path past the 107 bytes of a unix socket's address: serve anyway; the command line finds the directory in use
      logger.warn({ err: error }, 'the team channel could not be opened: npm run requests will find the database in use');
    }
  }
  const address = server.address();
  listeningPort = typeof address === 'object' && address ? address.port : config.port;
  const url = listenOriginOf(config.host, listeningPort);
  outbox.kick(); // what a previous run left unsent
  // The team's reminders: an alert when a privacy request passes its due date, and the daily digest at
  // SONDE_TEAM_DIGEST_HOUR, once across instances (the day's row): checked now, then every minute.
  const reminders =
    options.reminders === false
      ? undefined
      : startReminders({ db: database.db, hour: config.teamDigestHour, from: config.mail.from, siteUrl: publicOrigin, logger, kick: outbox.kick, ...options.reminders });
  // `url`: the address to open (the public origin: http://localhost:PORT on loopback, where passkeys work); `listen`: the socket's
  logger.info(
    { url: publicOrigin(), listen: url, metrics: metricsListener ? `${metricsListener.url}/metrics` : 'off', database: database.engine, webhook: config.announceWebhookUrl ? 'on' : 'off', events: config.events ? 'on' : 'off', mail: config.mail.smtpUrl ? 'smtp' : 'files' },
    'listening',
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(purgeTimer);
      clearInterval(analyzeTimer);
      const closed = Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), team?.close(), metricsListener?.close()]);
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
      await Promise.race([closed, grace]);
      refusals.close();
      await reminders?.stop();
      await outbox.stop();
      await database.close();
      logger.info('stopped');
    })());
  return { url, publicOrigin: publicOrigin(), database, metricsUrl: metricsListener?.url, stop };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let logger: Logger;
  try {
    logger = createLogger();
  } catch (error) {
    // no level, no logger: the reason as one line on stderr (SONDE_LOG_LEVEL named)
    console.error(`could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  let running: RunningServer;
  try {
    running = await startServer(readConfig(), logger);
  } catch (error) {
    logger.fatal({ err: error }, 'could not start');
    process.exit(1);
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'stopping: finishing in-flight requests');
      running.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'could not stop cleanly');
          process.exit(1);
        },
      );
    });
  }
}
