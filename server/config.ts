import { resolve } from 'node:path';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from './limits.ts';
import type { DatabaseLocation } from './db/database.ts';

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
  /** `SONDE_TRUST_PROXY=true`: the client IP is the first `X-Forwarded-For` entry */
  trustProxy: boolean;
  /** `SONDE_ALLOWED_ORIGINS`, comma-separated; unset: the server's own origin only */
  allowedOrigins: string[] | undefined;
  /** `SONDE_NOTIFY_WEBHOOK_URL`: every stored request is announced there (server/notifier.ts); unset: none */
  notifyWebhookUrl: string | undefined;
}

function integer(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, not "${value}"`);
  return n;
}

/**
 * Reads the configuration from `env`.
 * @throws Error naming the variable when one is malformed (a port that is not a number, an origin that is not a URL).
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const origins = env.SONDE_ALLOWED_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins ?? []) {
    if (new URL(origin).origin !== origin) throw new Error(`SONDE_ALLOWED_ORIGINS: "${origin}" is not an origin like https://sonde.dev`);
  }
  const webhook = env.SONDE_NOTIFY_WEBHOOK_URL || undefined;
  if (webhook && !/^https?:$/.test(URL.canParse(webhook) ? new URL(webhook).protocol : '')) {
    throw new Error(`SONDE_NOTIFY_WEBHOOK_URL must be an http(s) URL, not "${webhook}"`);
  }
  return {
    port: integer('PORT', env.PORT, 4173, 0),
    host: env.HOST || '127.0.0.1',
    database: env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: resolve(env.SONDE_PGLITE_DIR || '.data/pglite') },
    distDir: resolve(env.SONDE_DIST_DIR || 'dist'),
    rateLimitPerMinute: integer('SONDE_RATE_LIMIT_PER_MINUTE', env.SONDE_RATE_LIMIT_PER_MINUTE, DEFAULT_RATE_LIMIT_PER_MINUTE, 1),
    trustProxy: env.SONDE_TRUST_PROXY === 'true',
    allowedOrigins: origins && origins.length > 0 ? origins : undefined,
    notifyWebhookUrl: webhook,
  };
}
