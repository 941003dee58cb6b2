// The verification link of a privacy request (11 CCR §7060, §7062): what the server mails,
// what the page /privacy-request/verify reads, and what the two calls between them carry. One module
// for the browser and the server.

import type { PrivacyRequestType } from './submission.ts';

/** The page the confirmation's link opens (a route of the site, prerendered, `noindex`). */
export const VERIFY_PAGE_PATH = '/privacy-request/verify';

/**
 * `POST` `{ token }`: which request a link confirms, changing nothing (the page shows it before the
 * visitor confirms). A POST, so that the token is never in a URL, a log or a cache.
 */
export const VERIFICATION_LOOKUP_PATH = '/api/privacy-requests/verify/lookup';

/**
 * `POST` `{ token }`: "Confirm it's me". Only a POST verifies: a mail scanner that opens the link (a GET of
 * the page) confirms nothing.
 */
export const VERIFICATION_CONFIRM_PATH = '/api/privacy-requests/verify';

/** Random bytes in a token: 32, written as 43 characters of unpadded base64url (RFC 4648 §5). */
export const VERIFICATION_TOKEN_BYTES = 32;

/** A well-formed token: 43 characters of base64url. */
export const VERIFICATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The link of a confirmation mail: the page, with the token in the fragment. A fragment is never sent
 * to a server (not in an access log, a proxy's, or a `Referer`); the page moves it out of the address
 * before anything could record it (src/services/verification.ts).
 * @param siteUrl - the site's public origin, e.g. `https://sonde.dev`
 */
export function verificationLink(siteUrl: string, token: string): string {
  return `${siteUrl}${VERIFY_PAGE_PATH}#token=${token}`;
}

/**
 * The token of a verification link, from the address the page was opened at: the fragment the
 * confirmation mail's link carries (`#token=…`), or, once the page has moved it out of the address bar,
 * the history entry's state (`{ verificationToken }`), which a reload keeps.
 * @returns the token, or null when neither holds a well-formed one
 */
export function verificationTokenOf(address: { hash: string; state: unknown }): string | null {
  const fromHash = /^#token=(.*)$/.exec(address.hash)?.[1];
  const kept = (address.state as { verificationToken?: unknown } | null)?.verificationToken;
  const token = fromHash ?? (typeof kept === 'string' ? kept : null);
  return token !== null && VERIFICATION_TOKEN_PATTERN.test(token) ? token : null;
}

/**
 * The answer of both calls when the link is good (200): the request it confirms, as the page may show
 * it (its types and the date it was received; nothing else), and its state.
 * - lookup: `unverified` (the page offers "Confirm it's me") or `verified` (already confirmed);
 * - confirm: `confirmed` (this call confirmed it) or `verified` (it already was).
 */
export interface VerificationAnswer {
  status: 'unverified' | 'verified' | 'confirmed';
  requestTypes: PrivacyRequestType[];
  /** ISO 8601 */
  receivedAt: string;
}

/** What both calls answer, 404, for a link that is unknown, expired (past the due date) or of an answered request. */
export const UNKNOWN_LINK_ERROR = 'This link is unknown or has expired';
