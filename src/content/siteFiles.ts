import { P50_LATENCY_CLAIM_MS, PRICE_PER_1000_QUERIES_USD, PRODUCT_NAME } from '@/config/site';
import { light } from '@/styles/palette';
import { hero } from './hero';

// What the build's share image and web manifest say, from the same typed content as the pages.

/** The share image's path on the site (scripts/build.mjs renders it; og:image points at it). */
export const SHARE_IMAGE_PATH = '/share.png';

/** The share image's size in px: Open Graph's recommended size for `summary_large_image` cards. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** The web app manifest's path on the site (linked from index.html). */
export const WEB_MANIFEST_PATH = '/site.webmanifest';

/** The share image's text alternative (og:image:alt, twitter:image:alt). */
export const SHARE_IMAGE_ALT = `${PRODUCT_NAME}: ${hero.headline}`;

/**
 * What the 1200×630 share image shows (scripts/images.ts renders it): the product name, the home page's
 * headline, the price and the latency claim of spec §1, and the site's host.
 * @param siteUrl - the site's origin (SITE_URL)
 */
export function shareCard(siteUrl: string) {
  return {
    ...SHARE_IMAGE_SIZE,
    productName: PRODUCT_NAME,
    headline: hero.headline,
    tagline: `$${PRICE_PER_1000_QUERIES_USD.toFixed(2)} per 1,000 queries · under ${P50_LATENCY_CLAIM_MS} ms p50 · ${hero.eyebrow.toLowerCase()}`,
    host: new URL(siteUrl).host,
    background: light.accent,
    foreground: light.accentText,
  };
}

/**
 * The web app manifest (https://www.w3.org/TR/appmanifest/): name, colours and the PNG icons the build
 * renders from favicon.svg. `display: browser`: a marketing site keeps the address bar and its links.
 */
export function webManifest() {
  return {
    name: `${PRODUCT_NAME} — web search API for agentic AI`,
    short_name: PRODUCT_NAME,
    description: hero.lede,
    start_url: '/',
    scope: '/',
    display: 'browser',
    lang: 'en',
    background_color: light.background,
    theme_color: light.background,
    icons: [
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
    ],
  };
}
