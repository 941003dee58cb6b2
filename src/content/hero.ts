import { P50_LATENCY_CLAIM_MS, PRODUCT_NAME } from '@/config/site';

/** Hero copy (spec §2, home section 1). Figures come from src/config/site.ts. */
export const hero = {
  eyebrow: 'Invite-only beta',
  headline: 'Web search built for agents, not browsers',
  lede: `${PRODUCT_NAME} is a web search API for agentic AI, retrieval-augmented generation and high-volume SaaS workloads: fresh results from the whole web, returned as clean JSON in under ${P50_LATENCY_CLAIM_MS} ms at the median.`,
  coverage: 'Global, multilingual coverage',
  betaNote: 'Invite-only beta: we onboard teams in small cohorts.',
  primaryCta: 'Request an invite',
  secondaryCta: 'See pricing',
} as const;
