/**
 * The body of spec §7.1, shared by the client (src/), the MSW mocks and the server (server/), so
 * that what the forms send and what the server accepts cannot drift apart. Types and constants only:
 * nothing here runs in the browser bundle beyond a few strings.
 */

/** The invite request payload of spec §3. Optional fields are absent when empty (spec §5). */
export interface InvitePayload {
  fullName: string;
  workEmail: string;
  roleTitle: string;
  companyName: string;
  websiteUrl?: string;
  useCaseDescription: string;
  primaryWorkloads: string[];
  mustHaveCapabilities: string[];
  estimatedMonthlyQueries: string;
  peakQPS: string;
  targetLatency?: string;
  keyRegionsLanguages?: string;
  /** `YYYY-MM-DD`, as a date input gives it */
  desiredStartDate?: string;
  budgetRange?: string;
  notes?: string;
  consentGiven: boolean;
}

/** Client metadata added at submission (spec §3). */
export interface ClientMetadata {
  /** ISO 8601 timestamp */
  submittedAt: string;
  /** public IP from the lookup of spec §7.2; null when it failed */
  clientIP: string | null;
  browserId: string;
  userAgent: string;
  browserLanguage: string;
  /** IANA time-zone name, e.g. `Europe/Paris` */
  timezone: string;
  /** `WIDTHxHEIGHT` in CSS pixels */
  screenResolution: string;
}

/** The JSON body of spec §7.1; the analytics event of §7.3 carries the same `data`. */
export interface SubmissionBody {
  event: 'invite_request';
  data: InvitePayload & ClientMetadata;
}

/**
 * Spec §3: a privacy request is sent as an invite request with these fixed values. The server tells
 * the two kinds apart by them (`kind` = `privacy` when both match).
 */
export const PRIVACY_REQUEST_MARKERS = {
  roleTitle: 'Privacy Request',
  notes: 'CCPA RIGHTS REQUEST',
} as const;

/** Request types of the privacy form (spec §3), sent as these labels, in form order. */
export const PRIVACY_REQUEST_TYPES = ['Access/Know', 'Delete', 'Correct', 'Opt-Out', 'Data Portability', 'Other'] as const;

/** One of {@link PRIVACY_REQUEST_TYPES}. */
export type PrivacyRequestType = (typeof PRIVACY_REQUEST_TYPES)[number];

/**
 * Request types for which the requester's identity is verified before the team acts (11 CCR §7060(b),
 * §7062): to know, delete, correct, port. An opt-out needs none (§7026).
 */
export const VERIFIED_REQUEST_TYPES: readonly PrivacyRequestType[] = ['Access/Know', 'Delete', 'Correct', 'Data Portability'];

/**
 * The request types a privacy request's `useCaseDescription` lists on its `Request types:` line (spec
 * §3), in form order; only the labels of {@link PRIVACY_REQUEST_TYPES}, so that nothing else a client
 * wrote on that line is ever repeated (in a mail, say) as if it were a request type.
 */
export function privacyRequestTypesOf(useCaseDescription: string): PrivacyRequestType[] {
  const line = /^Request types: (.*)$/m.exec(useCaseDescription)?.[1] ?? '';
  const listed = new Set(line.split(',').map((type) => type.trim()));
  return PRIVACY_REQUEST_TYPES.filter((type) => listed.has(type));
}

/** What a stored submission is: an invite request, or a privacy request mapped onto one (spec §3). */
export type SubmissionKind = 'invite' | 'privacy';

/** Spec §3: `privacy` when the payload carries the privacy mapping's role title and notes, else `invite`. */
export function submissionKind(data: Pick<InvitePayload, 'roleTitle' | 'notes'>): SubmissionKind {
  return data.roleTitle === PRIVACY_REQUEST_MARKERS.roleTitle && data.notes === PRIVACY_REQUEST_MARKERS.notes
    ? 'privacy'
    : 'invite';
}

/**
 * Input limits, in characters (DESIGN.md §4): the server rejects longer values with a 400, and the
 * client's `maxLength` uses the same numbers.
 */
export const TEXT_LIMITS = {
  /** names, titles, company, and the short free-text answers (volumes, latency, regions, budget) */
  short: 200,
  /** an email address (RFC 5321 path limit) */
  email: 254,
  /** a URL */
  url: 2048,
  /** multi-line free text: the use-case description and the notes */
  long: 5000,
} as const;

/** The largest accepted body of spec §7.1, in bytes (DESIGN.md §4). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * `submittedAt` may be at most this old when the server receives it, in ms (30 days): the browser's
 * outbox drops what is older, the server refuses it (server/limits.ts).
 */
export const SUBMITTED_AT_MAX_AGE_MS = 30 * 24 * 60 * 60_000;

/** The submission endpoint's path on the Sonde server (server/http/submissions.ts); the client's default endpoint. */
export const SUBMISSIONS_PATH = '/api/submissions';
