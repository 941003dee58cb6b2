import type { Database } from '../db/database.ts';
import { everyRefusal, type Logger, type RefusalLog } from '../logger.ts';
import type { MetricsRecorder } from '../metrics.ts';
import type { MailSettings } from '../outbox/mail.ts';

/**
 * What `createApp` (server/http/app.ts) needs, handed on to the sub-apps and the shared middleware.
 * Everything but `database`, `logger` and `publicOrigin` has a default.
 */
export interface AppOptions {
  database: Database;
  logger: Logger;
  /**
   * how refused requests are logged (server/logger.ts): the server's `createRefusalLog`, one line per kind of
   * refusal and interval; by default every refusal, as it happens
   */
  refusals?: RefusalLog;
  /** the prerendered site (scripts/build.mjs) with the headers it was built with; absent: API only */
  site?: { distDir: string; htmlHeaders: Record<string, string> };
  /** submissions per client IP per minute before 429 (`SONDE_RATE_LIMIT_PER_MINUTE`) */
  rateLimitPerMinute?: number;
  /** the team's sign-in and enrollment calls per client address per minute; default `TEAM_AUTH_ATTEMPTS_PER_MINUTE` */
  teamAuthAttemptsPerMinute?: number;
  /**
   * behind a load balancer (`SONDE_TRUST_PROXY`): the client IP is the `trustedProxyHops`-th
   * `X-Forwarded-For` entry from the right, the one the first trusted proxy appended
   */
  trustProxy?: boolean;
  /** `SONDE_TRUSTED_PROXY_HOPS`: proxies in front of the server that append to `X-Forwarded-For`; default 1 */
  trustedProxyHops?: number;
  /**
   * the site's origin as visitors reach it (server/config.ts `publicOriginOf`), always allowed to POST;
   * a function when it is known only once the server listens. Never read from a request header.
   */
  publicOrigin: string | (() => string);
  /**
   * more origins allowed to POST submissions (server/config.ts `allowedOriginsOf`: `SONDE_ALLOWED_ORIGINS`, or
   * by default the listen address's own); a function when it is known only once the server listens
   */
  allowedOrigins?: string[] | (() => string[] | undefined);
  /** how long a request waits for the database before 503 (`DATABASE_ANSWER_TIMEOUT_MS` (server/limits.ts); tests shorten it) */
  databaseTimeoutMs?: number;
  /** submissions handled at once, counted once their body has arrived, before 503 */
  maxConcurrentSubmissions?: number;
  /** submissions one client address may have under way at once (body arriving, or being stored) before 429 */
  maxSubmissionsPerClient?: number;
  /** the server's clock, for the `submittedAt` window; tests fix it */
  now?: () => Date;
  /**
   * what the requester's mail names (server/config.ts `mail`): `privacyEmail`, `teamEmail`; the team's
   * mail preview renders with it. Default: `PRIVACY_EMAIL` of shared/policy.ts, no team address
   */
  mail?: Pick<MailSettings, 'privacyEmail' | 'teamEmail'>;
  /**
   * the outbox (server/outbox/sender.ts), woken after each stored submission or decision, and which
   * deliveries each stored submission gets in the same statement: the webhook's announcement, the
   * requester's mail (acknowledgment or confirmation), the team's mail; `events`: the team's decisions
   * write their signed event too (`SONDE_EVENTS_WEBHOOK_URL` is set)
   */
  outbox?: { kick(): void; webhook: boolean; requesterMail: boolean; teamMail: boolean; events?: boolean };
  /** the server's metrics (server/metrics.ts), when `SONDE_METRICS_LISTEN` is set: HTTP answers, submissions and team sign-ins are counted into them */
  metrics?: MetricsRecorder;
}

/** The app's refusal log: `options.refusals`, else every refusal logged as it happens. */
export const refusalLogOf = (options: AppOptions): RefusalLog => options.refusals ?? everyRefusal(options.logger);
