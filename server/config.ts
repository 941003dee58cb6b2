import { resolve } from 'node:path';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, DEFAULT_TEAM_DIGEST_HOUR, TEAM_AUTH_ATTEMPTS_PER_MINUTE, EVENTS_SECRET_MAX_BYTES, EVENTS_SECRET_MIN_BYTES } from './limits.ts';
import { PRIVACY_EMAIL } from '#shared/policy';
import type { DatabaseLocation } from './db/database.ts';
import type { EventSettings } from './outbox/events.ts';
import type { MailSettings } from './outbox/mail.ts';

/** The server's settings, read from the environment by {@link readConfig}. */
export interface ServerConfig {
  /** `PORT`, default 4173; 0 picks a free port (the `listening` log line says which) */
  port: number;
  /** `HOST`, default 127.0.0.1 (set `0.0.0.0` to listen on every interface) */
  host: string;
  /** `DATABASE_URL` (PostgreSQL), else PGlite in `SONDE_PGLITE_DIR` (default `.data/pglite`) */
  database: DatabaseLocation;
  /** `SONDE_DIST_DIR`: the built site, default `dist` */
  distDir: string;
  /** `SONDE_RATE_LIMIT_PER_MINUTE`, default 10 */
  rateLimitPerMinute: number;
  /** `SONDE_TEAM_AUTH_ATTEMPTS_PER_MINUTE`, default `TEAM_AUTH_ATTEMPTS_PER_MINUTE`: the team's sign-in and enrollment calls per client address per minute */
  teamAuthAttemptsPerMinute: number;
  /**
   * `SONDE_TRUST_PROXY=true`: behind that many proxies (`SONDE_TRUSTED_PROXY_HOPS`, default 1) that each
   * append the address they received from to `X-Forwarded-For`, the client IP is the entry the first of
   * them wrote: the `trustedProxyHops`-th from the right, never one the client wrote itself.
   */
  trustProxy: boolean;
  /** `SONDE_TRUSTED_PROXY_HOPS`, default 1: how many proxies in front of the server append to `X-Forwarded-For` */
  trustedProxyHops: number;
  /**
   * `SONDE_PUBLIC_ORIGIN`: the site's origin as visitors reach it; unset: the first of
   * `SONDE_ALLOWED_ORIGINS`, else `http://localhost:PORT` on loopback, else `http://HOST:PORT`
   * ({@link publicOriginOf}). Never taken from a request's headers.
   */
  publicOrigin: string | undefined;
  /** `SONDE_ALLOWED_ORIGINS`, comma-separated: origins allowed to POST besides the public origin */
  allowedOrigins: string[] | undefined;
  /** `SONDE_ANNOUNCE_WEBHOOK_URL`: every stored request is announced there (server/outbox/webhook.ts); unset: none */
  announceWebhookUrl: string | undefined;
  /**
   * `SONDE_EVENTS_WEBHOOK_URL` and `SONDE_EVENTS_WEBHOOK_SECRET`: the signed decision events for machines
   * (server/outbox/events.ts); unset: no event channel runs, and a decision writes no event row
   * ({@link eventsEnabled})
   */
  events: EventSettings | undefined;
  /** mail to requesters and the team (server/outbox/mail.ts): `SONDE_SMTP_URL`, `SONDE_MAIL_DIR`, `SONDE_MAIL_FROM`, `SONDE_PRIVACY_EMAIL`, `SONDE_TEAM_EMAIL` */
  mail: MailSettings;
  /**
   * `SONDE_METRICS_LISTEN` (`host:port`, e.g. `127.0.0.1:9464`): where Prometheus scrapes `/metrics`
   * (server/metrics.ts), a listener of its own, never the public port; unset (the default): no metrics
   */
  metricsListen?: MetricsListen;
  /** `SONDE_TEAM_DIGEST_HOUR`, default {@link DEFAULT_TEAM_DIGEST_HOUR}: the UTC hour (0–23) from which the team's daily digest is sent (server/outbox/digest.ts) */
  teamDigestHour: number;
}

/** Where the metrics listener listens: a host name or IP address (an IPv6 one without brackets) and a port (0: a free one). */
export interface MetricsListen {
  host: string;
  port: number;
}

/**
 * `SONDE_METRICS_LISTEN`: `host:port`, an IPv6 address in brackets (`[::1]:9464`); unset or empty, none.
 * @throws Error naming the variable: not `host:port`, a port not an integer from 0 to 65535, or the
 *   public port itself (`PORT`): the metrics are for the operator's network only, never the visitors'
 */
function metricsListenOf(value: string | undefined, publicPort: number): MetricsListen | undefined {
  if (value === undefined || value === '') return undefined;
  const parts = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(value);
  const port = Number(parts?.[3]);
  if (!parts || port > 65_535) throw new Error(`SONDE_METRICS_LISTEN must be host:port, like 127.0.0.1:9464 or [::1]:9464, not "${value}"`);
  if (port !== 0 && port === publicPort) throw new Error(`SONDE_METRICS_LISTEN must not be the public port (PORT=${publicPort}): the metrics have a listener of their own`);
  return { host: (parts[1] ?? parts[2])!, port };
}

/** `true` or `false` in any case (unset or empty: `false`); anything else, `1` or `yes` too, stops the server naming `name`. */
function flag(name: string, value: string | undefined): boolean {
  const word = value?.toLowerCase();
  if (word === undefined || word === '' || word === 'false') return false;
  if (word === 'true') return true;
  throw new Error(`${name} must be true or false, not "${value}"`);
}

function integer(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, not "${value}"`);
  return n;
}

/** An hour of the day, 0 to 23, written as digits; anything else stops the server naming `name`. */
function hourOfDay(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = /^\d{1,2}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(n >= 0 && n <= 23)) throw new Error(`${name} must be an hour of the day in UTC, 0 to 23, not "${value}"`);
  return n;
}

/** An address as `hello@sonde.dev` or `Sonde <hello@sonde.dev>`. */
const ADDRESS = /^(?:[^<>@\s][^<>@]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function address(name: string, value: string | undefined, fallback: string): string;
function address(name: string, value: string | undefined): string | undefined;
function address(name: string, value: string | undefined, fallback?: string): string | undefined {
  if (value === undefined || value === '') return fallback;
  if (!ADDRESS.test(value.trim())) throw new Error(`${name} must be an email address, like hello@sonde.dev or "Sonde <hello@sonde.dev>", not "${value}"`);
  return value.trim();
}

function readMailSettings(env: NodeJS.ProcessEnv): MailSettings {
  const smtpUrl = env.SONDE_SMTP_URL || undefined;
  if (smtpUrl !== undefined && !/^smtps?:$/.test(URL.canParse(smtpUrl) ? new URL(smtpUrl).protocol : '')) {
    throw new Error('SONDE_SMTP_URL must be an smtp:// or smtps:// URL');
  }
  return {
    smtpUrl,
    emlDir: resolve(env.SONDE_MAIL_DIR || '.data/mail'),
    from: address('SONDE_MAIL_FROM', env.SONDE_MAIL_FROM, `Sonde <${PRIVACY_EMAIL.replace(/^[^@]+/, 'hello')}>`),
    privacyEmail: address('SONDE_PRIVACY_EMAIL', env.SONDE_PRIVACY_EMAIL, PRIVACY_EMAIL),
    teamEmail: address('SONDE_TEAM_EMAIL', env.SONDE_TEAM_EMAIL),
  };
}

/** Standard base64 (RFC 4648 §4), padded: what a `whsec_` secret carries after its prefix. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The decision events' settings: none without `SONDE_EVENTS_WEBHOOK_URL`; with it, the secret is required
 * and checked here, so that a server never starts with events it cannot sign. The secret is never
 * quoted in an error.
 * @throws Error naming the variable: a URL that is not http(s), a URL without a secret, a secret that
 *   is not `whsec_` + base64 of {@link EVENTS_SECRET_MIN_BYTES} to
 *   {@link EVENTS_SECRET_MAX_BYTES} bytes (Standard Webhooks, "Signature scheme")
 */
function readEventSettings(env: NodeJS.ProcessEnv): EventSettings | undefined {
  const url = env.SONDE_EVENTS_WEBHOOK_URL || undefined;
  const secret = env.SONDE_EVENTS_WEBHOOK_SECRET || undefined;
  if (url === undefined) return undefined;
  if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : '')) {
    throw new Error(`SONDE_EVENTS_WEBHOOK_URL must be an http(s) URL, not "${url}"`);
  }
  const format = `whsec_ followed by the base64 of ${EVENTS_SECRET_MIN_BYTES} to ${EVENTS_SECRET_MAX_BYTES} random bytes (make one with: echo whsec_$(openssl rand -base64 32))`;
  if (secret === undefined) throw new Error(`SONDE_EVENTS_WEBHOOK_URL is set without SONDE_EVENTS_WEBHOOK_SECRET: set it to ${format}`);
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  const bytes = encoded !== undefined && BASE64.test(encoded) ? Buffer.from(encoded, 'base64').length : 0;
  if (bytes < EVENTS_SECRET_MIN_BYTES || bytes > EVENTS_SECRET_MAX_BYTES) {
    throw new Error(`SONDE_EVENTS_WEBHOOK_SECRET is not a valid signing secret: it must be ${format}`);
  }
  return { url, secret };
}

/**
 * Whether decision events are sent (`SONDE_EVENTS_WEBHOOK_URL` is set): a decision writes its `event`
 * row only then, as a stored request writes its announcement only when `SONDE_ANNOUNCE_WEBHOOK_URL` is set.
 */
export function eventsEnabled(config: Pick<ServerConfig, 'events'>): boolean {
  return config.events !== undefined;
}

/**
 * Reads the configuration from `env`.
 * @throws Error naming the variable when one is malformed (a port that is not a number, an origin that is not a URL,
 *   an events URL without its signing secret, a metrics address that is not `host:port` or is the public port), or is the webhook's old name `SONDE_NOTIFY_WEBHOOK_URL`.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const origins = env.SONDE_ALLOWED_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins ?? []) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) throw new Error(`SONDE_ALLOWED_ORIGINS: "${origin}" is not an origin like https://sonde.dev`);
  }
  const publicOrigin = env.SONDE_PUBLIC_ORIGIN || undefined;
  const host = env.HOST || '127.0.0.1';
  if ((host === '0.0.0.0' || host === '::') && publicOrigin === undefined && !(origins && origins.length > 0)) {
    // http://0.0.0.0:PORT is no origin a browser sends: every POST would be refused, every mail link dead
    throw new Error(`HOST=${host} listens on every interface, so the server cannot know the address visitors use: set SONDE_PUBLIC_ORIGIN, e.g. https://sonde.dev`);
  }
  if (publicOrigin !== undefined && (!URL.canParse(publicOrigin) || new URL(publicOrigin).origin !== publicOrigin)) {
    throw new Error(`SONDE_PUBLIC_ORIGIN: "${publicOrigin}" is not an origin like https://sonde.dev`);
  }
  if (env.SONDE_NOTIFY_WEBHOOK_URL) {
    // renamed before 0.1.0: a deployment that still sets it would otherwise lose its announcements silently
    throw new Error('SONDE_NOTIFY_WEBHOOK_URL is now SONDE_ANNOUNCE_WEBHOOK_URL: rename the variable');
  }
  const webhook = env.SONDE_ANNOUNCE_WEBHOOK_URL || undefined;
  if (webhook && !/^https?:$/.test(URL.canParse(webhook) ? new URL(webhook).protocol : '')) {
    throw new Error(`SONDE_ANNOUNCE_WEBHOOK_URL must be an http(s) URL, not "${webhook}"`);
  }
  const events = readEventSettings(env);
  const port = integer('PORT', env.PORT, 4173, 0);
  return {
    port,
    host,
    database: env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: resolve(env.SONDE_PGLITE_DIR || '.data/pglite') },
    distDir: resolve(env.SONDE_DIST_DIR || 'dist'),
    rateLimitPerMinute: integer('SONDE_RATE_LIMIT_PER_MINUTE', env.SONDE_RATE_LIMIT_PER_MINUTE, DEFAULT_RATE_LIMIT_PER_MINUTE, 1),
    teamAuthAttemptsPerMinute: integer('SONDE_TEAM_AUTH_ATTEMPTS_PER_MINUTE', env.SONDE_TEAM_AUTH_ATTEMPTS_PER_MINUTE, TEAM_AUTH_ATTEMPTS_PER_MINUTE, 1),
    trustProxy: flag('SONDE_TRUST_PROXY', env.SONDE_TRUST_PROXY),
    trustedProxyHops: integer('SONDE_TRUSTED_PROXY_HOPS', env.SONDE_TRUSTED_PROXY_HOPS, 1, 1),
    publicOrigin,
    allowedOrigins: origins && origins.length > 0 ? origins : undefined,
    announceWebhookUrl: webhook,
    events,
    mail: readMailSettings(env),
    metricsListen: metricsListenOf(env.SONDE_METRICS_LISTEN, port),
    teamDigestHour: hourOfDay('SONDE_TEAM_DIGEST_HOUR', env.SONDE_TEAM_DIGEST_HOUR, DEFAULT_TEAM_DIGEST_HOUR),
  };
}

/** The host names of the loopback interface a fresh clone listens on, which a browser reaches as `localhost`. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The origin of the address the server listens on: `http://HOST:PORT`, an IPv6 address in brackets
 * (`http://[::1]:4173`).
 * @param port - the port actually listened on (`PORT=0` picks one)
 */
export function listenOriginOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The site's public origin: `SONDE_PUBLIC_ORIGIN`, else the first of `SONDE_ALLOWED_ORIGINS`, else,
 * listening on loopback (`HOST` 127.0.0.1, ::1 or localhost, the default), `http://localhost:PORT`:
 * WebAuthn takes the RP ID from this origin and refuses an IP address as one (WebAuthn Level 3 §5.1.4.1:
 * the RP ID is a registrable domain suffix of the origin's *domain*), so the team's console signs in only
 * at a host name. Else the address the server listens on, `http://HOST:PORT`. So a fresh clone works in a
 * browser at the address `npm start` prints.
 * @param port - the port actually listened on (`PORT=0` picks one)
 */
export function publicOriginOf(config: Pick<ServerConfig, 'publicOrigin' | 'allowedOrigins' | 'host'>, port: number): string {
  if (config.publicOrigin) return config.publicOrigin;
  if (config.allowedOrigins?.[0]) return config.allowedOrigins[0];
  return LOOPBACK_HOSTS.has(config.host) ? `http://localhost:${port}` : listenOriginOf(config.host, port);
}

/**
 * The origins allowed to POST submissions besides the public origin: `SONDE_ALLOWED_ORIGINS`; with no
 * origin configured at all, the listen address's own origin when the public origin is not it
 * (`http://127.0.0.1:4173` beside `http://localhost:4173`), so that a visitor who opens the address the
 * server listens on can still send the form. The team's API never accepts these (server/http/team/session.ts).
 * @param port - the port actually listened on
 * @returns undefined when there is none
 */
export function allowedOriginsOf(config: Pick<ServerConfig, 'publicOrigin' | 'allowedOrigins' | 'host'>, port: number): string[] | undefined {
  if (config.publicOrigin || config.allowedOrigins?.[0]) return config.allowedOrigins;
  const listening = listenOriginOf(config.host, port);
  return listening === publicOriginOf(config, port) ? undefined : [listening];
}
