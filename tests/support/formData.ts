/**
 * The FormData a form with these `[name, value]` entries submits, in order (a name may repeat, as the
 * boxes of a checkbox group do).
 */
export function formData(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}
