import { PRICE_PER_1000_QUERIES_USD, PRIVACY_EMAIL, PRODUCT_NAME } from '@/config/site';
import { RETENTION } from '#shared/policy';
import type { LegalSection } from './types';

/** Date the terms last changed, shown under the title. */
export const termsUpdated = '2026-11-22';

/** Terms of service for the invite-only API beta: 12 sections (spec §2). */
export const terms: readonly LegalSection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of these terms',
    paragraphs: [
      `These terms govern your use of the ${PRODUCT_NAME} website and, if you are admitted, the ${PRODUCT_NAME} beta API. By requesting an invite or using the API you accept them on behalf of yourself and the organisation you represent.`,
    ],
  },
  {
    id: 'beta',
    title: 'Invite-only beta',
    paragraphs: [
      'The API is in an invite-only beta. We decide at our discretion whom to admit and when, and may end a participant’s access or the beta itself with reasonable notice.',
    ],
  },
  {
    id: 'eligibility',
    title: 'Eligibility',
    paragraphs: [
      `You must be at least ${RETENTION.minimumAge} and authorised to bind your organisation. The beta is for business use, not for consumers.`,
    ],
  },
  {
    id: 'keys',
    title: 'Accounts and API keys',
    paragraphs: [
      'You are responsible for keeping your API keys secret, for scoping them to what each service needs, and for all use made with them. Tell us at once if a key is exposed; we will revoke it.',
    ],
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    paragraphs: ['You will not:'],
    bullets: [
      'use the API to break the law or infringe anyone’s rights;',
      'resell raw API access without our written agreement;',
      'probe, overload or work around the limits or security of the service;',
      'use results to build a competing general web search index.',
    ],
  },
  {
    id: 'fees',
    title: 'Fees and billing',
    paragraphs: [
      `During the beta, usage is billed at $${PRICE_PER_1000_QUERIES_USD.toFixed(2)} per 1,000 queries, monthly in arrears. We will give at least 30 days’ notice of any change to beta pricing and of pricing after the beta.`,
    ],
  },
  {
    id: 'results',
    title: 'Search results and content',
    paragraphs: [
      'Results point to third-party content that we do not control. You are responsible for how you use that content and for complying with the terms and rights attached to it.',
    ],
  },
  {
    id: 'data',
    title: 'Your data and logs',
    paragraphs: [
      'Your queries and their logs belong to you. We process them to run, secure and improve the service, keep them for the period stated in your beta agreement, and let you export them. Our privacy policy describes how we handle personal information.',
    ],
    link: { to: '/privacy', label: 'Read the privacy policy' },
  },
  {
    id: 'feedback-confidentiality',
    title: 'Feedback and confidentiality',
    paragraphs: [
      'Beta features, documentation and performance results we share with you are confidential until we publish them. You may give us feedback, and we may use it without obligation to you.',
    ],
  },
  {
    id: 'warranty',
    title: 'No warranty',
    paragraphs: [
      'The beta is provided “as is”. Latency, coverage and other figures on this site are goals for the service, not guarantees. We do not promise that the API will be uninterrupted or error-free.',
    ],
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    paragraphs: [
      'To the extent the law allows, neither party is liable for indirect or consequential damages, and our total liability is limited to the fees you paid us in the three months before the claim.',
    ],
  },
  {
    id: 'changes-contact',
    title: 'Changes, governing law and contact',
    paragraphs: [
      `We may update these terms and will post the new version here with its date. These terms are governed by the laws of the State of California. Questions: ${PRIVACY_EMAIL}.`,
    ],
  },
];
