// Dates and words of the console, in the member's locale (the browser's): the team reads them, no visitor.

// Each formatter made once, on first use, as src/utils/format.ts does: making one costs ICU a look-up of
// the locale's patterns, and a queue of 100 rows asks for a day per row on every render.
let day: Intl.DateTimeFormat | undefined;
let moment: Intl.DateTimeFormat | undefined;
let time: Intl.DateTimeFormat | undefined;

/** A day, e.g. `Nov 26, 2026` in en-US; `''` for no date. */
export function dayOf(iso: string | undefined): string {
  if (!iso) return '';
  day ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
  return day.format(new Date(iso));
}

/** A moment, e.g. `Nov 26, 2026, 9:30 AM` in en-US. */
export function momentOf(iso: string): string {
  moment ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return moment.format(new Date(iso));
}

/** When something happened: the time of day (`2:02 PM` in en-US) today, else the moment ({@link momentOf}). */
function whenOf(iso: string, now = new Date()): string {
  const at = new Date(iso);
  if (at.toDateString() !== now.toDateString()) return momentOf(iso);
  time ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
  return time.format(at);
}

/** What a change another member made is called: a timeline action or a privacy step, as a verb in the past. */
const CHANGE_VERBS: Record<string, string> = {
  accepted: 'accepted',
  waitlisted: 'waitlisted',
  declined: 'declined',
  spam: 'marked as spam',
  reopened: 'reopened',
  verified: 'marked as verified',
  extended: 'extended',
  responded: 'answered',
};

/**
 * A request changed since the member saw it (a 409's `changed`), in words: `Kim declined this at 2:02 PM`,
 * or, naming the request (`what`, e.g. `Ada Lovelace's request`), `Kim declined Ada Lovelace's request at …`.
 * When nothing recorded says who, the state now: `This is waitlisted now, not received as you saw it`.
 */
export function changedText(change: { seen: string; state: string; action: string | null; by: string | null; at: string | null }, what = 'this'): string {
  if (!change.action || !change.by || !change.at) {
    const subject = what === 'this' ? 'This' : what;
    return `${subject} is ${change.state} now, not ${change.seen} as you saw it`;
  }
  const sentence = `${change.by} ${CHANGE_VERBS[change.action] ?? change.action} ${what} at ${whenOf(change.at)}`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** `1 request`, `3 requests`. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A field's name in words, acronyms kept: `companyName` → `Company name`, `clientIP` → `Client IP`. */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((word) => (/^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase()))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A submitted value as text (never HTML): lists joined, yes/no, anything else as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return JSON.stringify(value);
}
