/**
 * Reads a text field from form data (spec §5: empty optional fields are sent as absent).
 * @returns the trimmed value, or `undefined` when the field is missing, not text, or blank
 */
export function optionalText(data: FormData, name: string): string | undefined {
  const value = data.get(name);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Reads a required text field. The browser has already refused an empty one (`required`), so a
 * blank value here only comes from whitespace.
 * @returns the trimmed value, `''` when blank
 */
export function requiredText(data: FormData, name: string): string {
  return optionalText(data, name) ?? '';
}

/** Reads a checkbox group: the values of the checked boxes, in document order (`[]` when none). */
export function checkedValues(data: FormData, name: string): string[] {
  return data.getAll(name).filter((value): value is string => typeof value === 'string');
}

/** Reads a single checkbox: `true` when checked. */
export function isChecked(data: FormData, name: string): boolean {
  return data.has(name);
}
