import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The security headers of every HTML page, defined once. `npm run build` (scripts/build.mjs) computes
 * the inputs (the inlined stylesheets' and entry loaders' hashes, the origins the page calls) and writes them for static
 * hosts as `dist/_headers` (Netlify, Cloudflare Pages) and `dist/vercel.json`; the Sonde server reads
 * `dist/vercel.json` back ({@link readSecurityHeaders}), so every host sends the same headers.
 */
export interface SecurityHeaderInputs {
  /** `sha256-…` (base64) of each inline `<style>` element's text */
  styleHashes: string[];
  /** `sha256-…` (base64) of each inline `<script>`'s text: the entry loaders (scripts/build.mjs `entryLoader`) */
  scriptHashes: string[];
  /** origins the page calls besides its own: submission endpoint, IP lookup, PostHog (spec §7) */
  connectOrigins: string[];
}

/**
 * What the site uses none of: every feature here is denied to the page and to any frame. Only features
 * that Chromium's Permissions-Policy parser knows: it warns on the console about any other token and
 * ignores it (Chromium 150: `bluetooth`, left out for that; no other browser enforces it either).
 */
const DENIED_FEATURES = [
  'accelerometer', 'autoplay', 'browsing-topics', 'camera', 'display-capture', 'geolocation',
  'gyroscope', 'hid', 'magnetometer', 'microphone', 'midi', 'payment', 'publickey-credentials-get',
  'screen-wake-lock', 'serial', 'usb', 'xr-spatial-tracking',
];

/**
 * The Permissions-Policy of a page: every feature of {@link DENIED_FEATURES} denied, but those the page
 * needs, which its own origin keeps (`=(self)`).
 * @param allowed - features of DENIED_FEATURES the page uses, e.g. `publickey-credentials-get`
 */
function permissionsPolicy(allowed: readonly string[] = []): string {
  return DENIED_FEATURES.map((feature) => `${feature}=${allowed.includes(feature) ? '(self)' : '()'}`).join(', ');
}

/**
 * The headers of the team console's page (`/team`, server/http/site.ts): the site's, but that signing in
 * with a passkey asks `navigator.credentials.get` (WebAuthn; `publickey-credentials-get` kept for the
 * page's own origin, never a frame's), and that no search engine keeps it (`X-Robots-Tag: noindex`).
 * @param headers - the site's page headers ({@link securityHeaders})
 */
export function teamPageHeaders(headers: Record<string, string>): Record<string, string> {
  return { ...headers, 'Permissions-Policy': permissionsPolicy(['publickey-credentials-get']), 'X-Robots-Tag': 'noindex' };
}

/** Two years, in seconds: the `max-age` that HSTS preload lists ask for. */
const HSTS_MAX_AGE_SECONDS = 63_072_000;

/**
 * The headers, as name → value. The Content-Security-Policy has no `unsafe-inline`/`unsafe-eval`:
 * scripts only from the site itself and the inline entry loaders by their hashes, the inlined stylesheet by its hash, calls only to the site and
 * `connectOrigins`, no framing, no `<base>`, forms posting only to the site.
 */
export function securityHeaders(inputs: SecurityHeaderInputs): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${inputs.scriptHashes.map((hash) => `'${hash}'`).join(' ')}`.trim(),
    `style-src 'self' ${inputs.styleHashes.map((hash) => `'${hash}'`).join(' ')}`.trim(),
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...new Set(inputs.connectOrigins)].join(' ')}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': permissionsPolicy(),
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/** Files of `dist/` that configure static hosts; never served as pages. */
export const HOST_CONFIG_FILES = ['_headers', 'vercel.json'] as const;

/** `dist/_headers` for Netlify and Cloudflare Pages: the headers on every path, long caching for assets. */
export function netlifyHeadersFile(headers: Record<string, string>): string {
  const lines = ['/*', ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)];
  lines.push('/assets/*', '  Cache-Control: public, max-age=31536000, immutable');
  return `${lines.join('\n')}\n`;
}

/** `dist/vercel.json`: clean URLs (`/privacy` → privacy.html), the headers on every path, long caching for assets. */
export function vercelConfig(headers: Record<string, string>) {
  return {
    cleanUrls: true,
    trailingSlash: false,
    headers: [
      { source: '/(.*)', headers: Object.entries(headers).map(([key, value]) => ({ key, value })) },
      { source: '/assets/(.*)', headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }] },
    ],
  };
}

/**
 * Reads the headers that `npm run build` wrote into `distDir/vercel.json`.
 * @throws when the file is missing or holds no headers for every path: the site was not built.
 */
export async function readSecurityHeaders(distDir: string): Promise<Record<string, string>> {
  const config = JSON.parse(await readFile(join(distDir, 'vercel.json'), 'utf8')) as ReturnType<typeof vercelConfig>;
  const all = config.headers.find((entry) => entry.source === '/(.*)');
  if (!all) throw new Error(`${distDir}/vercel.json has no headers for every path; run npm run build`);
  return Object.fromEntries(all.headers.map(({ key, value }) => [key, value]));
}
