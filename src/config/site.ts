/**
 * Every constant of spec §9, the storage keys, and the env-driven URLs of spec §7.
 * This is the only module that reads `import.meta.env`.
 */

import { SUBMISSIONS_PATH } from '#shared/submission';

/** Product name shown across the site. */
export const PRODUCT_NAME = 'Sonde';

/** Spec §9: beta price, in US dollars per 1,000 queries. */
export const PRICE_PER_1000_QUERIES_USD = 0.2;

/**
 * Monthly cost of a query volume at the beta price (spec §9).
 * @param queriesPerMonth - queries in one month
 * @returns US dollars per month, rounded to whole dollars
 */
export function monthlyCostUsd(queriesPerMonth: number): number {
  return Math.round((queriesPerMonth / 1000) * PRICE_PER_1000_QUERIES_USD);
}

/** Spec §9 pricing examples: 5M queries ≈ $1,000/month; 100M queries ≈ $20,000/month. */
export const PRICING_EXAMPLES = [5_000_000, 100_000_000].map((queriesPerMonth) => ({
  queriesPerMonth,
  monthlyUsd: monthlyCostUsd(queriesPerMonth),
}));

/** Spec §1, §9: marketing claim, median (p50) latency under this many ms. */
export const P50_LATENCY_CLAIM_MS = 100;

/** Spec §7.2, §9: the IP lookup is aborted after this many ms. */
export const IP_LOOKUP_TIMEOUT_MS = 5000;

/** Spec §4, §9: how long the opt-out confirmation stays on screen, in ms. */
export const OPT_OUT_TOAST_MS = 3000;

/**
 * Not in the spec: PostHog loads after the page's load event, in the browser's next idle
 * period, and at the latest this many ms after the load event when the page is never idle. Each later
 * step (init, the session recorder, recording: src/services/analytics.ts) waits for an idle period of
 * its own, with the same limit.
 */
export const ANALYTICS_IDLE_TIMEOUT_MS = 3000;

/**
 * Not in the spec: how long analytics waits, in ms, for the worker that creates the page's first
 * Intl.DateTimeFormat off the main thread (src/services/analytics.ts) before going on without it.
 */
export const INTL_WARMUP_TIMEOUT_MS = 2000;

/**
 * Not in the spec: the submission call is given up after this many ms. The invite visitor
 * then goes to /thank-you, the privacy visitor sees the error and can retry; the request is kept in the
 * outbox and sent again either way.
 */
export const SUBMIT_TIMEOUT_MS = 10_000;

/**
 * Spec §4, §8: the longest the invite form waits, before /thank-you, for a request it hands to the outbox
 * to be in the browser's storage, in ms (the write takes milliseconds; the privacy form waits as long before
 * it says the request is saved). Past it the visitor moves on all the same ("navigate whatever the
 * result"), the wait is logged, and the outbox still holds the request in memory for the page's life.
 */
export const KEEP_REQUEST_TIMEOUT_MS = 1_000;

/**
 * Each call of the verification page (`/privacy-request/verify`: the look-up, "Confirm it's
 * me") is given up after this many ms; the page then says so and offers to try again.
 */
export const VERIFICATION_TIMEOUT_MS = 10_000;

/** Not in the spec: a call of the team's console to `/api/team/*` is aborted after this many ms (a CSV export of the whole queue included). */
export const TEAM_CALL_TIMEOUT_MS = 30_000;

/**
 * The browser's submission outbox (machines/outboxMachine.ts): a submission that failed on a network
 * error, a time-out, a 5xx or a 429 is kept and sent again until the server has it.
 */
export const OUTBOX = {
  /** at most this many kept; the oldest is dropped first, with a warning */
  maxEntries: 20,
  /** a submission larger than this, in bytes of JSON, is not kept (the server refuses it anyway) */
  maxEntryBytes: 64 * 1024,
  /** first wait before sending again, in ms; doubles with each failed attempt */
  retryBaseMs: 2_000,
  /** longest wait between two attempts, in ms (5 minutes) */
  retryMaxMs: 5 * 60_000,
  /**
   * the outbox starts (to send what earlier pages kept) in the browser's first idle period after the load
   * event, and at the latest this many ms after it; a request a form hands it starts it at once
   */
  startIdleTimeoutMs: 3_000,
} as const;

/** Spec §2, §9: delay before scrolling to the section named by the address hash, in ms. */
export const SCROLL_TO_ANCHOR_DELAY_MS = 100;

/** Spec §7.3: the analytics event sent with the body's data when an invite request is submitted. */
export const INVITE_SUBMITTED_EVENT = 'invite_request_submitted';

/** Product-specific localStorage keys (spec §3). */
export const STORAGE_KEYS = {
  browserId: 'sonde.browserId',
  consent: 'sonde.trackingConsent',
  /** the submission outbox, in IndexedDB (idb-keyval's default store), or in localStorage where IndexedDB fails */
  outbox: 'sonde.outbox',
  /** prefix of each form's draft in sessionStorage, followed by the form's machine id (`invite`, `privacyRequest`) */
  draftPrefix: 'sonde.draft.',
} as const;

/** A form's draft is kept this long after the visitor's last change, in ms (and at once when focus leaves the form). */
export const DRAFT_SAVE_DELAY_MS = 500;

/** Prefix of every generated browserId (spec §3). */
export const BROWSER_ID_PREFIX = 'sonde';

/** The year the site was built; the footer shows it until the browser has taken over (src/app/useAfterHydration.ts). */
// `typeof` keeps this module loadable where the define is absent (the docs:machines script).
export const BUILD_YEAR: number = typeof __BUILD_YEAR__ === 'number' ? __BUILD_YEAR__ : new Date().getFullYear();

/** Contact address for privacy and legal questions, quoted by the policy pages. */
export { PRIVACY_EMAIL } from '#shared/policy';

/** Where to report a security problem (`/.well-known/security.txt`, RFC 9116). */
export const SECURITY_EMAIL = 'security@sonde.dev';

const env = import.meta.env;

/**
 * The site's public origin, without a trailing slash, for canonical URLs, Open Graph, the
 * sitemap and robots.txt. `VITE_SITE_URL`; by default the domain of the site's mail (sonde.dev).
 */
export const SITE_URL: string = (env.VITE_SITE_URL || 'https://sonde.dev').replace(/\/+$/, '');

/** Spec §7.1: submission endpoint. Defaults to the Sonde server's own path (server/http/submissions.ts), served by `npm start` / `npm run dev`. */
export const SUBMIT_ENDPOINT: string = env.VITE_SUBMIT_ENDPOINT || SUBMISSIONS_PATH;

/** Spec §7.2: public IP-lookup service, asked for JSON. */
export const IP_LOOKUP_URL: string = env.VITE_IP_LOOKUP_URL || 'https://api.ipify.org?format=json';

/** Spec §7.3: PostHog project key; analytics is off while it is unset. */
export const POSTHOG_KEY: string | undefined = env.VITE_POSTHOG_KEY || undefined;

/** Spec §7.3: PostHog API host. */
export const POSTHOG_HOST: string = env.VITE_POSTHOG_HOST || 'https://us.i.posthog.com';

/** `VITE_INSPECT=true` opens the inspector without `?inspect` in the address. */
export const INSPECT_BY_DEFAULT: boolean = env.VITE_INSPECT === 'true';
