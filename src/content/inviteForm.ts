/** Options of the primaryWorkloads checkbox group (spec §3), sent as these labels. */
export const PRIMARY_WORKLOADS = ['Agentic automation', 'RAG', 'Monitoring & alerts', 'Research & analysis', 'Other'] as const;

/** Options of the mustHaveCapabilities checkbox group (spec §3), sent as these labels. */
export const MUST_HAVE_CAPABILITIES = [
  'Tunable ranking',
  'Hybrid retrieval',
  'Streaming results',
  'Multilingual coverage',
  'Logs & exports',
  'Compliance addendum',
] as const;

/** Labels and placeholders of the invite form (spec §3, §5). Placeholders are the spec's, word for word. */
export const inviteForm = {
  requiredNote: 'Fields marked * are required.',
  groups: { about: 'About you', workload: 'Your workload', logistics: 'Logistics' },
  fullName: 'Full name',
  workEmail: 'Work email',
  roleTitle: 'Role / title',
  companyName: 'Company',
  websiteUrl: 'Company website',
  websiteUrlHint: 'Include https://',
  useCaseDescription: 'What will you build with Sonde?',
  useCaseDescriptionHint: 'The agent, pipeline or product, and what it searches for.',
  primaryWorkloads: 'Primary workloads',
  mustHaveCapabilities: 'Must-have capabilities',
  estimatedMonthlyQueries: 'Estimated monthly queries',
  estimatedMonthlyQueriesPlaceholder: '5M, 50M, 100M+',
  peakQPS: 'Peak queries per second (QPS)',
  peakQPSPlaceholder: '100 QPS, 1000 QPS',
  targetLatency: 'Target latency',
  targetLatencyPlaceholder: '50ms/100ms',
  keyRegionsLanguages: 'Key regions and languages',
  keyRegionsLanguagesPlaceholder: 'US, EU, APAC; EN, FR, DE',
  desiredStartDate: 'Desired start date',
  budgetRange: 'Budget range',
  budgetRangePlaceholder: '$1k-5k/mo, $10k+/mo',
  notes: 'Anything else?',
  submit: 'Request invite',
  submitting: 'Submitting...',
} as const;
