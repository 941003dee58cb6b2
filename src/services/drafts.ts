import { STORAGE_KEYS } from '@/config/site';

/**
 * Drafts of the forms: what a visitor typed, kept in `sessionStorage` (this tab only, gone
 * when the tab closes) so that leaving the page and coming back loses nothing. Cleared once the form is
 * sent. Nothing here throws: a storage failure is logged and the form works without drafts.
 */

/** A form's values by input name: text as typed, checkbox groups as the checked values. */
export type DraftValues = Record<string, string | string[]>;

const keyOf = (form: string) => `${STORAGE_KEYS.draftPrefix}${form}`;

/**
 * Reads a form's draft.
 * @param form - the form's machine id, e.g. `invite`
 * @returns the values, or null when none is kept, it is unreadable, or storage throws (logged)
 */
export function loadDraft(form: string): DraftValues | null {
  if (typeof window === 'undefined') return null; // prerendering at build time
  try {
    const raw = window.sessionStorage.getItem(keyOf(form));
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const values: DraftValues = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'))) values[name] = value;
    }
    return values;
  } catch (error) {
    console.warn(`[drafts] the draft of ${form} could not be read`, error);
    return null;
  }
}

/** Keeps a form's values for this tab. Never throws. */
export function saveDraft(form: string, values: DraftValues): void {
  try {
    window.sessionStorage.setItem(keyOf(form), JSON.stringify(values));
  } catch (error) {
    console.warn(`[drafts] the draft of ${form} could not be kept`, error);
  }
}

/** Forgets a form's draft (it was sent). Never throws. */
export function clearDraft(form: string): void {
  try {
    window.sessionStorage.removeItem(keyOf(form));
  } catch (error) {
    console.warn(`[drafts] the draft of ${form} could not be cleared`, error);
  }
}
