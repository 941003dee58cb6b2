import type { DraftValues } from '@/services/drafts';

/**
 * A form's values as a draft: each named field's text, each checkbox group's checked values.
 * @param data - `new FormData(form)`
 * @param leaveOut - names not to keep (the honeypot)
 */
export function draftFromFormData(data: FormData, leaveOut: readonly string[] = []): DraftValues {
  const values: DraftValues = {};
  for (const name of new Set(data.keys())) {
    if (leaveOut.includes(name)) continue;
    const all = data.getAll(name).filter((value): value is string => typeof value === 'string');
    values[name] = all.length === 1 ? all[0]! : all;
  }
  return values;
}

/**
 * Puts a draft back into a form: text into text inputs and textareas, checkboxes checked when
 * their value was kept. Fields the draft does not name are left as they are.
 */
export function fillFormFromDraft(form: HTMLFormElement, draft: DraftValues): void {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) || !element.name) continue;
    if (!(element.name in draft)) continue;
    const kept = draft[element.name]!;
    if (element instanceof HTMLInputElement && element.type === 'checkbox') {
      element.checked = Array.isArray(kept) ? kept.includes(element.value) : kept === element.value;
    } else if (typeof kept === 'string') {
      element.value = kept;
    }
  }
}
