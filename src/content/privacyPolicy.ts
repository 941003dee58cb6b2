import { SUBMITTED_AT_MAX_AGE_MS } from '#shared/submission';
import { PRIVACY_EMAIL, PRODUCT_NAME } from '@/config/site';
import { RETENTION } from '#shared/policy';
import type { LegalSection } from './types';

/** How long the browser's outbox keeps an undelivered request, in days (the server's submittedAt limit). */
const OUTBOX_MAX_AGE_DAYS = SUBMITTED_AT_MAX_AGE_MS / (24 * 60 * 60_000);

/** Date the policy text last changed, shown under the title. */
export const privacyPolicyUpdated = '2026-11-28';

/** The privacy policy, sections 1 to 10 (spec §2, §3, §7, §9). Figures come from src/config/site.ts. */
export const privacyPolicy: readonly LegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are and what this policy covers',
    paragraphs: [
      `${PRODUCT_NAME} provides a web search API for agentic AI, retrieval-augmented generation and high-volume SaaS workloads. This policy explains what personal information we collect through this website, why, how long we keep it, and the rights you have over it, including under the California Consumer Privacy Act as amended by the California Privacy Rights Act (CCPA/CPRA).`,
    ],
  },
  {
    id: 'what-we-collect',
    title: 'Information we collect',
    paragraphs: [
      'When you request a beta invite we collect what you type into the form: your name, work email, role, company, website, your use case, workloads, required capabilities, expected volume and peak queries per second (QPS), latency target, regions and languages, desired start date, budget range and notes, and your agreement to be contacted.',
      'When you send a privacy request we collect your name, your email, your company if you give it, the request types you choose and the details you add.',
      'With each request, of either kind, our site also adds technical information:',
    ],
    bullets: [
      'the time of submission;',
      'your public IP address, looked up through a public IP-lookup service when you start filling in a form, not before (if that lookup fails, no IP address is sent);',
      'a browser identifier (browserId): a string made from a hash of your browser’s user agent, language, time-zone offset and screen size, plus a timestamp, stored in your browser’s local storage and reused for later requests;',
      'your browser’s user agent, language, time zone and screen resolution.',
    ],
  },
  {
    id: 'how-we-use',
    title: 'How we use your information',
    paragraphs: [
      'We use application data to review beta requests, contact you about the beta, size capacity for cohorts, and prevent duplicate or abusive requests. We use the browser identifier and device data to recognise repeat submissions and to detect fraud. We do not sell application data.',
      'When we receive a request we email the address you gave to confirm it: for an invite request, once a day at most to one mailbox; for a privacy request, every request, in at most three emails a day to one mailbox, so requests sent close together may share one email that lists each of them. Spellings that reach the same inbox (capital letters, a +tag, the dots of a Gmail address) count as one mailbox. That email never repeats what you typed, so nobody can use our forms to send someone else a message.',
    ],
  },
  {
    id: 'analytics',
    title: 'Analytics, session recording and your opt-out',
    paragraphs: [
      'Unless you opt out, we use PostHog product analytics to count page views and page leaves and to record sessions (without content from other sites’ frames). Analytics runs in memory only: it sets no cookies, and profiles are created only for identified users. When you request an invite, an analytics event with the same data as your request is sent.',
      'Sharing this data with an analytics provider may count as “sharing” under the CCPA. You can opt out at any time with the “Do Not Sell or Share My Personal Information” button in the footer of every page: we save your choice in your browser, stop analytics capture and session recording at once, and do not load analytics again on later visits. Submitting the invite form counts as agreeing to analytics again.',
    ],
  },
  {
    id: 'gpc',
    title: 'Global Privacy Control (GPC)',
    paragraphs: [
      'If your browser sends the Global Privacy Control signal, we treat it as a request to opt out of sale and sharing: analytics is never loaded, whatever preference was saved before, and the footer confirms that the signal was honoured.',
    ],
  },
  {
    id: 'retention',
    title: 'How long we keep information',
    paragraphs: [
      'We keep information only as long as we need it, and delete it automatically once these periods have passed:',
    ],
    bullets: [
      `beta application data: up to ${RETENTION.applicationMonths} months, counted from when you send your request;`,
      `records of privacy requests (what you sent, and when and how we answered): ${RETENTION.privacyRequestRecordMonths} months after you send your request, as the CCPA regulations require;`,
      `browser fingerprints (browser identifiers): up to ${RETENTION.browserFingerprintMonths} months, deleted with the request they came with;`,
      `in your own browser, not on our servers: what you type into a form is kept in that tab’s session storage, so that you can leave the page and come back to it, until you send the form or close the tab; a request that could not reach us (no connection, or our server not answering) is kept in your browser’s storage and sent again until it arrives, for at most ${OUTBOX_MAX_AGE_DAYS} days, then deleted.`,
    ],
  },
  {
    id: 'sharing',
    title: 'Who we share information with',
    paragraphs: [
      'We share information with service providers that host our site and forms, look up IP addresses and run product analytics, under contracts that limit their use of it to serving us. We disclose information when the law requires it. We do not sell personal information for money.',
    ],
  },
  {
    id: 'children',
    title: 'Children',
    paragraphs: [
      `${PRODUCT_NAME} is not for people under ${RETENTION.minimumAge}. We do not knowingly collect information from anyone under ${RETENTION.minimumAge}; if you believe we have, contact us and we will delete it.`,
    ],
  },
  {
    id: 'your-rights',
    title: 'Your rights under the CCPA/CPRA',
    paragraphs: [
      'You have the right to know and access the personal information we hold about you, to delete it, to correct it, to opt out of its sale or sharing, to receive it in a portable format, and not to be discriminated against for using these rights.',
      `Send a request with our privacy request form. We confirm receipt by email, usually straight away and always within a day, with the date we received your request, the request types, the date our answer is due and how we will process it. We answer within ${RETENTION.privacyResponseDays} days of receipt; if we need more time, we tell you why before that date, and we extend only once, by up to ${RETENTION.privacyResponseDays} more days. Before we act on a request to know, delete, correct or port your information, we confirm that the request is yours: the confirmation email carries a link that confirms your request once; open it and press “Confirm it's me”. We ask for nothing else. Our database keeps that email, with its link, only until it is delivered; from then on it keeps only a fingerprint of the link, deleted when the request is answered, or within a day after its due date. Until then, opening the link again tells you whether the request is confirmed. If you cannot use the link, reply to the email from the address you gave and we will confirm it with you. A request to opt out of sale or sharing needs no verification.`,
      'To a request to know, access or port your information, we answer with every request we hold under your email address, with all the technical information listed above, in a machine-readable format. To a request to delete, we delete every one of them and keep only a record that we did: a one-way hash of your email address, the date and the number of requests deleted.',
      'We match a request to your information by exactly the email address it came from, the one we confirmed it with, and we send our answer and your information only to that address. Capital letters in the part after the @ make no difference; anything else does: a request from Name@example.com, from name+tag@example.com, or from a Gmail address with other dots or at googlemail.com, covers only what was sent from that very spelling, because another spelling of a mailbox may belong to someone else. If you used several spellings, send a request from each, or tell us in your reply, and we confirm each one with its own address before we act on it.',
    ],
    link: { to: '/privacy-request', label: 'Submit a privacy request' },
  },
  {
    id: 'contact',
    title: 'Changes and contact',
    paragraphs: [
      'We will post any change to this policy on this page with a new date. For questions about this policy or your information, write to us at ' +
        `${PRIVACY_EMAIL}.`,
    ],
  },
];
