import { P50_LATENCY_CLAIM_MS } from '@/config/site';

// The hero lives in its own module: the share image's alt text (siteFiles.ts, on every page) quotes
// its headline, and only it, not the rest of the home page, belongs in every route's JavaScript.
export { hero } from './hero';

/** One feature card (spec §2, home section 2). */
export interface Feature {
  id: string;
  title: string;
  description: string;
}

/** The eight feature cards of spec §2; descriptions restate the marketing claims of spec §1. */
export const features: readonly Feature[] = [
  {
    id: 'fast',
    title: 'Fast at scale',
    description: `Median (p50) latency under ${P50_LATENCY_CLAIM_MS} ms, with streaming responses so your agent can act on the first results while the rest arrive.`,
  },
  {
    id: 'affordable',
    title: 'Radically affordable',
    description: '$0.20 per 1,000 queries in beta. No seat fees and no minimums, so per-step search in an agent loop stays cheap.',
  },
  {
    id: 'global',
    title: 'Global coverage',
    description: 'Multilingual results across regions and languages, so one integration serves users from São Paulo to Seoul.',
  },
  {
    id: 'legal',
    title: 'Legally clean',
    description: 'We do not scrape search engine result pages. Results come from our own index, so there is no third-party SERP in your supply chain.',
  },
  {
    id: 'tunable',
    title: 'Tunable results',
    description: 'Tunable ranking and configurable freshness per request: favour recent pages for news agents, authority for research.',
  },
  {
    id: 'hybrid',
    title: 'Hybrid retrieval',
    description: 'Keyword precision plus vector-style semantic recall in one call, ready to feed a RAG pipeline without a re-ranking pass.',
  },
  {
    id: 'enterprise',
    title: 'Enterprise-ready',
    description: 'Scoped API keys, audit-friendly logs you can export, and replayable queries for debugging and evaluation.',
  },
  {
    id: 'elastic',
    title: 'Elastic capacity',
    description: 'Built for high-volume SaaS: burst from a handful of queries per second (QPS) to thousands without renegotiating a plan.',
  },
];

/** Pricing section copy (spec §2 section 3, §9). Figures are computed from src/config/site.ts. */
export const pricing = {
  title: 'Simple usage-based pricing',
  intro: 'One price per query during the beta. You pay for what your agents and users actually run.',
  unit: 'per 1,000 queries',
  includes: [
    'Every capability: hybrid retrieval, tunable ranking, streaming, freshness controls',
    'Scoped API keys and exportable logs',
    'No minimum commitment during the beta',
  ],
  examplesTitle: 'What it costs at volume',
} as const;

/** One FAQ entry (spec §2, home section 4). */
export interface FaqItem {
  question: string;
  answer: string;
}

/** Questions engineering teams ask before they integrate. Claims stay marketing claims (spec §1). */
export const faq: readonly FaqItem[] = [
  {
    question: 'How fast is it?',
    answer: `Our target is a median (p50) latency under ${P50_LATENCY_CLAIM_MS} ms per query. Responses can be streamed, so the first results reach your code before the full page of results is ready.`,
  },
  {
    question: 'Which regions and languages do you cover?',
    answer: 'Coverage is global and multilingual. Tell us your key regions and languages in the invite form so we can check them against your workload before onboarding.',
  },
  {
    question: 'How are pricing and billing handled?',
    answer: 'During the beta you pay $0.20 per 1,000 queries, billed monthly on usage. 5M queries a month comes to about $1,000; 100M to about $20,000. There is no seat fee or minimum.',
  },
  {
    question: 'How does beta access work?',
    answer: 'Request an invite with a few details about your workload. We review requests on a rolling basis, onboard teams in cohorts, and send API credentials when your cohort opens.',
  },
  {
    question: 'Where does the data come from?',
    answer: 'From our own crawl and index. We do not scrape search engine result pages, so you are not building on someone else’s terms of service.',
  },
  {
    question: 'How do API keys and logs work?',
    answer: 'Keys are scoped, so each service or agent gets only the access it needs. Every query is logged in an audit-friendly format you can export, and any logged query can be replayed.',
  },
  {
    question: 'Can I tune ranking and freshness?',
    answer: 'Yes. Ranking weights and freshness windows are request parameters, and hybrid keyword plus vector-style retrieval is on by default.',
  },
];

/** The 'Compliance & trust (beta)' note under the FAQ (spec §2). */
export const complianceNote = {
  title: 'Compliance & trust (beta)',
  body: 'No scraping of search result pages, scoped API keys, and exportable audit logs. A compliance addendum is available to beta customers on request; ask for it in your invite request.',
} as const;

/** Invite section heading and intro (spec §2, home section 5). */
export const inviteSection = {
  title: 'Request an invite',
  intro: 'Tell us about your team and workload. The more concrete you are about volume, latency and regions, the faster we can place you in a cohort.',
} as const;
