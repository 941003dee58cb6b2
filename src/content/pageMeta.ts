import { P50_LATENCY_CLAIM_MS, PRICE_PER_1000_QUERIES_USD, PRODUCT_NAME } from '@/config/site';

/**
 * Each page's metadata for search engines and link previews: its own title and description,
 * and whether it may be indexed. The routes are those of spec §2; `/404` is the not-found page.
 */
export interface PageMeta {
  /** the document title */
  title: string;
  /** `<meta name="description">` and the link previews' text, one or two sentences */
  description: string;
  /** false: `noindex`, and left out of the sitemap */
  indexable: boolean;
}

const price = `$${PRICE_PER_1000_QUERIES_USD.toFixed(2)}`;

export const pageMeta = {
  '/': {
    title: `${PRODUCT_NAME} — web search API for agentic AI`,
    description: `${PRODUCT_NAME} is a web search API for agentic AI, RAG and high-volume SaaS: under ${P50_LATENCY_CLAIM_MS} ms p50, global multilingual coverage, ${price} per 1,000 queries. Invite-only beta.`,
    indexable: true,
  },
  '/privacy': {
    title: `Privacy Policy — ${PRODUCT_NAME}`,
    description: `What ${PRODUCT_NAME} collects when you request a beta invite or send a privacy request, how long it is kept, and how to opt out of sale or sharing (CCPA/CPRA, Global Privacy Control).`,
    indexable: true,
  },
  '/privacy-request': {
    title: `Privacy rights request — ${PRODUCT_NAME}`,
    description: `Ask ${PRODUCT_NAME} to let you know, delete, correct or port your personal information, or to stop selling or sharing it (CCPA/CPRA). We answer within 45 days.`,
    indexable: true,
  },
  '/privacy-request/verify': {
    title: `Confirm your privacy request — ${PRODUCT_NAME}`,
    description: `Confirm a privacy request sent to ${PRODUCT_NAME}.`,
    indexable: false,
  },
  '/terms': {
    title: `Terms of Service — ${PRODUCT_NAME}`,
    description: `The terms of the ${PRODUCT_NAME} beta: access, acceptable use, pricing, data and liability.`,
    indexable: true,
  },
  '/thank-you': {
    title: `Request received — ${PRODUCT_NAME}`,
    description: `Your request reached the ${PRODUCT_NAME} team. What happens next.`,
    indexable: false,
  },
  '/404': {
    title: `Page not found — ${PRODUCT_NAME}`,
    description: `There is no page at this address on the ${PRODUCT_NAME} site.`,
    indexable: false,
  },
} as const satisfies Record<string, PageMeta>;

/** A route that has metadata. */
export type MetaRoute = keyof typeof pageMeta;

/** The routes search engines may index, in the order of spec §2: the sitemap's list. */
export const indexableRoutes = (Object.keys(pageMeta) as MetaRoute[]).filter((route) => pageMeta[route].indexable);
