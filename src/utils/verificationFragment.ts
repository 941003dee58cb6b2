import { TEAM_ENROLL_PATH } from '#shared/team';
import { VERIFICATION_TOKEN_PATTERN, VERIFY_PAGE_PATH } from '#shared/verification';

// The verification link's token (11 CCR §7060; the link is `/privacy-request/verify#token=…`) must never
// stay in the address bar, where analytics (`$current_url`), a shared screen or a copied address would
// carry it. src/main.tsx strips it on every route before anything else of the app runs, so before
// analytics can load, and again on each later fragment change; the verification page reads the token
// kept here. The team console's enrollment link (`/team/enroll#token=…`, 32 random bytes as well) is
// carried and kept the same way, for the enrollment page.

/** The pages whose link's token is kept when stripped: the verification page and the console's enrollment page. */
const KEEPING_PAGES: readonly string[] = [VERIFY_PAGE_PATH, TEAM_ENROLL_PATH];

/** The name a verification fragment carries, matched after percent-decoding and in any letter case. */
const TOKEN_NAME = /(?:^|[#&?;/])\s*token\s*=/i;

/** The token of a decoded verification fragment: the first well-formed run after `token=`. */
const TOKEN_VALUE = /token\s*=\s*([A-Za-z0-9_-]+)/i;

/** what the last fragment stripped on a keeping page carried, and that page; null when none since it was taken */
let kept: { token: string | null; page: string } | null = null;

/**
 * A fragment with every `%XX` escape decoded, again and again until none is left (`%2574` → `%74` →
 * `t`), byte by byte, so that a malformed escape elsewhere does not hide one. Each pass shortens the
 * text, so it ends; the work is at most quadratic in the fragment's length, which the browser bounds.
 * @param hash - `location.hash`, e.g. `#%74oken=…`
 */
export function decodedFragment(hash: string): string {
  let text = hash;
  for (;;) {
    const next = text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === text) return text;
    text = next;
  }
}

/**
 * Whether a fragment is a verification link's, however it is spelled: `#token=…`, `#%74oken=…`,
 * `#TOKEN=…`, `#a=1&token=…`; the fragment is read percent-decoded.
 * @param hash - `location.hash`
 */
export function isVerificationFragment(hash: string): boolean {
  return TOKEN_NAME.test(decodedFragment(hash));
}

/**
 * The token a verification fragment names, when it is well-formed (43 characters of base64url);
 * null otherwise.
 * @param hash - `location.hash`
 */
export function tokenOfFragment(hash: string): string | null {
  const token = TOKEN_VALUE.exec(decodedFragment(hash))?.[1] ?? null;
  return token !== null && VERIFICATION_TOKEN_PATTERN.test(token) ? token : null;
}

/**
 * Removes a verification fragment from the address bar, on any route: the history entry is replaced by
 * the same path and query, without the fragment, its state kept; on the verification page and the
 * console's enrollment page its token (null when malformed: a link cut short) is kept in memory for the
 * page ({@link takeStrippedFragment}). Any other fragment (`#faq`)
 * is left as it is.
 * @param location - `window.location`
 * @param history - `window.history`
 * @returns true when a fragment was removed
 */
export function stripVerificationFragment(location: Pick<Location, 'pathname' | 'search' | 'hash'>, history: Pick<History, 'state' | 'replaceState'>): boolean {
  if (!isVerificationFragment(location.hash)) return false;
  if (KEEPING_PAGES.includes(location.pathname)) kept = { token: tokenOfFragment(location.hash), page: location.pathname };
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return true;
}

/**
 * What the last fragment stripped on `page` carried, once: the page moves the token into its history
 * entry's state (which a reload keeps), and starts afresh for each link.
 * @param page - the page asking: the verification page (default) or the console's enrollment page
 * @returns `{ token }` (null for a malformed one), or null when none was stripped on `page` since the last call
 */
export function takeStrippedFragment(page: string = VERIFY_PAGE_PATH): { token: string | null } | null {
  if (kept === null || kept.page !== page) return null;
  const { token } = kept;
  kept = null;
  return { token };
}

/**
 * Whether a fragment stripped on `page` waits to be taken ({@link takeStrippedFragment}), without taking it:
 * the page renders nothing of its link until it has.
 */
export function hasStrippedFragment(page: string): boolean {
  return kept !== null && kept.page === page;
}
