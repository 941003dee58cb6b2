import { PRICING_EXAMPLES } from '@/config/site';
import { grouped } from '@/utils/format';

// A monthly volume of queries, read as people write it and written as the site writes it, and the
// slider's scale: the half of the cost estimator's arithmetic (./estimate.ts) that knows no price.
// The reading is ours, not a library's: numeral and human-format both read `12M5`, `1e3` or `1.2.3` as
// some number instead of refusing it, and a visitor must be told when an entry cannot be read.

/** The estimate the section opens with, in the prerendered page too: spec §9's first example, 5M queries a month. */
export const EXAMPLE_QUERIES_PER_MONTH = PRICING_EXAMPLES[0]!.queriesPerMonth;

/** A month, for the average rate: 30 days. */
export const DAYS_PER_MONTH = 30;

/** Seconds in a day. */
export const SECONDS_PER_DAY = 86_400;

/** Seconds in the 30-day month of {@link DAYS_PER_MONTH}: 2,592,000. */
export const SECONDS_PER_MONTH = DAYS_PER_MONTH * SECONDS_PER_DAY;

/** The largest volume read, in queries per month (1,000B, about 386,000 QPS on average); more is told, not estimated. */
export const MAX_QUERIES_PER_MONTH = 1_000_000_000_000;

/** The slider's ends, in queries per month: 100k and 10B. */
export const SLIDER_MIN_QUERIES = 100_000;
export const SLIDER_MAX_QUERIES = 10_000_000_000;

/** The slider's stops within each power of ten (×10): even steps on a logarithmic scale, rounded to values people write. */
const STOPS_PER_DECADE = [10, 12, 15, 20, 25, 30, 40, 50, 60, 80];

/**
 * Every value the slider stops at, in queries per month, ascending: 100k, 120k, 150k, 200k, … 8B, 10B
 * (10 stops per power of ten, 51 in all), so one arrow key is one step of about a fifth.
 */
export const SLIDER_QUERIES: readonly number[] = (() => {
  const values: number[] = [];
  for (let decade = SLIDER_MIN_QUERIES; decade < SLIDER_MAX_QUERIES; decade *= 10) {
    for (const stop of STOPS_PER_DECADE) values.push((stop * decade) / 10);
  }
  values.push(SLIDER_MAX_QUERIES);
  return values;
})();

/** Thousands, millions and billions as the site writes them (`250k`, `12M`, `1.5B`) and in words. */
const UNITS = [
  { suffix: 'B', word: 'billion', zeros: 9 },
  { suffix: 'M', word: 'million', zeros: 6 },
  { suffix: 'k', word: 'thousand', zeros: 3 },
] as const;

/** What a suffix means, as people write it in either case: `k`, `M`, `B`, `bn`, or the word. */
const SUFFIX_ZEROS: Record<string, number> = { k: 3, thousand: 3, m: 6, million: 6, b: 9, bn: 9, billion: 9 };

/**
 * The longest text each field is read from, in characters (UTF-16 code units, as `maxLength` counts).
 * Longer text is refused before any pattern sees it, so reading costs at most a fixed amount of work
 * whatever an address or a script puts there; the inputs carry the same `maxLength`. Each is well above
 * the longest form the field reads (`1,000,000,000,000 billion +` is 27).
 */
export const QUERIES_TEXT_MAX_LENGTH = 32;

/** A number as people write one: digits, commas between groups of three, a decimal point. */
const DECIMAL = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?`;

// The patterns read text whose runs of white space are already one space (`compact`), and allow a space
// only as ` ?`: no two quantifiers next to each other can match the same characters, so a text that
// fails is refused after trying each quantifier's lengths once, never every way of splitting a run
// between them (which took time growing with the square, or the cube, of the length).

/** `12M`, `1.5B`, `250k`, `12,000,000`, `100M+`, `12 million` (spaces and case aside). */
const QUERIES_PATTERN = new RegExp(String.raw`^${DECIMAL} ?(k|thousand|m|million|b|bn|billion)? ?\+?$`, 'i');


/**
 * The text a pattern reads: null when longer than `maxLength`, else trimmed, each run of white space
 * made one space.
 */
export function compact(text: string, maxLength: number): string | null {
  return text.length > maxLength ? null : text.trim().replace(/\s+/g, ' ');
}

/**
 * `whole.fraction × 10^zeros`, exactly when the fraction has no more digits than `zeros` (integer
 * arithmetic on the digits, so `12.345M` is 12,345,000 and never 12,344,999.999…), else rounded to a
 * whole number.
 */
export function scaled(whole: string, fraction: string, zeros: number): number {
  const digits = whole.replace(/,/g, '');
  if (fraction.length <= zeros) return Number(digits + fraction.padEnd(zeros, '0'));
  return Math.round(Number(`${digits}.${fraction}`) * 10 ** zeros);
}

/**
 * Reads a number of queries as people write one.
 * @param text - e.g. `12M`, `1.5B`, `250k`, `12,000,000`, `100M+` (read as 100M), `12 million`;
 *   surrounding spaces and the case of the suffix do not matter
 * @returns the number of queries (a whole number, however large), or null when the text is none of
 *   these forms (`12M5`, `1e3`, `twelve`, an empty field) or longer than {@link QUERIES_TEXT_MAX_LENGTH}
 */
export function parseQueries(text: string): number | null {
  const read = compact(text, QUERIES_TEXT_MAX_LENGTH);
  const match = read === null ? null : QUERIES_PATTERN.exec(read);
  if (!match) return null;
  const [, whole = '', fraction = '', suffix] = match;
  return scaled(whole, fraction, suffix ? SUFFIX_ZEROS[suffix.toLowerCase()]! : 0);
}

/** Why a volume is not estimated: it could not be read, or it is above {@link MAX_QUERIES_PER_MONTH}. */
export type QueriesProblem = 'unreadable' | 'tooMany';

/**
 * Reads the queries-per-month field.
 * @param text - what the visitor wrote (see {@link parseQueries})
 * @returns the queries per month, or the problem to tell the visitor next to the field
 */
export function readQueries(text: string): { queries: number } | { problem: QueriesProblem } {
  const queries = parseQueries(text);
  if (queries === null) return { problem: 'unreadable' };
  return queries > MAX_QUERIES_PER_MONTH ? { problem: 'tooMany' } : { queries };
}

/**
 * The largest unit of {@link UNITS} that writes `count` with a whole part under 1,000 (any whole part for
 * billions) and at most two decimals, exactly; null when none does (`12,345,678`).
 */
function unitFor(count: number): { unit: (typeof UNITS)[number]; whole: number; fraction: string } | null {
  for (const unit of UNITS) {
    const size = 10 ** unit.zeros;
    if (count < size) continue;
    const whole = Math.floor(count / size);
    const fraction = String(count - whole * size)
      .padStart(unit.zeros, '0')
      .replace(/0+$/, '');
    if ((whole < 1000 || unit.suffix === 'B') && fraction.length <= 2) return { unit, whole, fraction };
  }
  return null;
}

/**
 * Writes a number of queries in the forms {@link parseQueries} reads, shortest first and exactly:
 * `12000000` → `12M`, `1500000000` → `1.5B`, `250000` → `250k`, `194400000` → `194.4M`, and digits
 * grouped by commas when no unit writes it with two decimals or fewer: `12345678` → `12,345,678`.
 * @param queries - a whole number of queries, 0 or more
 */
export function formatQueries(queries: number): string {
  const written = unitFor(queries);
  if (!written) return grouped(String(queries));
  const { unit, whole, fraction } = written;
  return `${grouped(String(whole))}${fraction ? `.${fraction}` : ''}${unit.suffix}`;
}

/**
 * A number of queries in words, for a screen reader (the slider's `aria-valuetext`): `12000000` →
 * `12 million`, `1500000000` → `1.5 billion`, `250000` → `250 thousand`, `12345678` → `12,345,678`.
 * @param queries - a whole number of queries, 0 or more
 */
export function queriesInWords(queries: number): string {
  const written = unitFor(queries);
  if (!written) return grouped(String(queries));
  const { unit, whole, fraction } = written;
  return `${grouped(String(whole))}${fraction ? `.${fraction}` : ''} ${unit.word}`;
}

/**
 * The slider's position for a volume: the stop of {@link SLIDER_QUERIES} nearest on the logarithmic
 * scale; the first below 100k (0 included), the last above 10B.
 * @param queries - queries per month
 * @returns an index into SLIDER_QUERIES
 */
export function sliderPositionOf(queries: number): number {
  const last = SLIDER_QUERIES.length - 1;
  if (queries <= SLIDER_MIN_QUERIES) return 0;
  if (queries >= SLIDER_MAX_QUERIES) return last;
  const target = Math.log(queries);
  let nearest = 0;
  SLIDER_QUERIES.forEach((value, position) => {
    if (Math.abs(Math.log(value) - target) < Math.abs(Math.log(SLIDER_QUERIES[nearest]!) - target)) nearest = position;
  });
  return nearest;
}

/**
 * The volume at a slider position.
 * @param position - an index into {@link SLIDER_QUERIES}; rounded, and held within 0 and the last stop
 * @returns queries per month, from 100k to 10B
 */
export function sliderQueriesAt(position: number): number {
  const index = Math.min(SLIDER_QUERIES.length - 1, Math.max(0, Math.round(position)));
  return SLIDER_QUERIES[index]!;
}
