import { STORAGE_KEYS } from '@/config/site';

/** A stored tracking-consent preference (spec §3). */
export type ConsentPreference = 'accepted' | 'rejected';

/**
 * Reads the stored preference from localStorage (`STORAGE_KEYS.consent`).
 * @returns 'accepted', 'rejected', or null when nothing (or something else) is stored or storage
 *   throws; a throw is logged (spec §8)
 */
export function readStoredConsent(): ConsentPreference | null {
  if (typeof window === 'undefined') return null; // prerendering at build time
  try {
    const value = window.localStorage.getItem(STORAGE_KEYS.consent);
    return value === 'accepted' || value === 'rejected' ? value : null;
  } catch (error) {
    console.warn('[consent] could not read the stored preference', error);
    return null;
  }
}

/**
 * Stores the preference as 'accepted' or 'rejected' (spec §3). Never throws: when storage fails the
 * failure is logged (spec §8) and the preference holds only for this page's life, in the consent machine.
 */
export function storeConsent(preference: ConsentPreference): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.consent, preference);
  } catch (error) {
    console.warn(`[consent] could not store '${preference}'; it holds until the page is closed`, error);
  }
}

/**
 * The browser's Global Privacy Control signal (`navigator.globalPrivacyControl`, spec §4).
 * @returns true only when the browser sends it; false where it is absent (and when prerendering)
 */
export function readGpcSignal(): boolean {
  if (typeof navigator === 'undefined') return false;
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}
