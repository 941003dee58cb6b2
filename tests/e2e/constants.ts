/** Values the Playwright config and the e2e tests must agree on. */

/** The ports of the `site` server (a fresh clone's configuration) and the `analytics` server (PostHog on, SMTP). */
export const E2E_SITE_PORT = 4180;
export const E2E_ANALYTICS_PORT = 4181;

/** The PostHog host of the analytics build; never resolvable, and every request to it is intercepted. */
export const E2E_POSTHOG_HOST = 'https://posthog.e2e.invalid';

/** The local webhook receiver of the e2e runs (tests/e2e/webhookReceiver.ts), and where it writes. */
export const E2E_WEBHOOK_PORT = 4183;
export const E2E_WEBHOOK_URL = `http://127.0.0.1:${E2E_WEBHOOK_PORT}/hook`;
export const E2E_WEBHOOK_FILE = '.e2e/webhook/deliveries.jsonl';

/**
 * The signed decision events of the `site` server (`SONDE_EVENTS_WEBHOOK_URL`) go to the same receiver,
 * which writes each one's headers and raw body to E2E_EVENTS_FILE. The secret is a test value, not a key of
 * any deployment.
 */
export const E2E_EVENTS_URL = `http://127.0.0.1:${E2E_WEBHOOK_PORT}/events`;
export const E2E_EVENTS_FILE = '.e2e/webhook/events.jsonl';
export const E2E_EVENTS_SECRET = `whsec_${Buffer.from('sonde e2e test secret, 32 bytes!').toString('base64')}`;

/** Where the `site` e2e server writes its mail as .eml files (no SMTP server set: as a fresh clone does). */
export const E2E_SITE_MAIL_DIR = '.e2e/mail-site';

/** The PGlite directory of the `site` e2e server, when no DATABASE_URL is set. */
export const E2E_SITE_PGLITE_DIR = '.e2e/pglite-site';

/**
 * The local SMTP server of the e2e runs (tests/e2e/smtpReceiver.ts): the `analytics` server sends its
 * mail there (`SONDE_SMTP_URL`), and it writes each message it receives, whole, into this directory.
 */
export const E2E_SMTP_PORT = 4184;
export const E2E_SMTP_DIR = '.e2e/smtp';

/** The PGlite directory of the `analytics` e2e server (always PGlite: its outbox must not send the `site` server's mail). */
export const E2E_ANALYTICS_PGLITE_DIR = '.e2e/pglite-analytics';
