import { monthlyCostUsd, PRICING_EXAMPLES } from '@/config/site';
import { grouped } from './format';

// The cost estimator's arithmetic (spec §9: $0.20 per 1,000 queries, through monthlyCostUsd): pure
// functions from what the visitor wrote to the figures, so that the view holds only the text typed.
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
/** See {@link QUERIES_TEXT_MAX_LENGTH}: the peak rate (`1,000,000.125 QPS` is 17). */
export const PEAK_QPS_TEXT_MAX_LENGTH = 32;
/** See {@link QUERIES_TEXT_MAX_LENGTH}: the share of the day (`12.5 %` is 6). */
export const SHARE_OF_DAY_TEXT_MAX_LENGTH = 16;

/** A number as people write one: digits, commas between groups of three, a decimal point. */
const DECIMAL = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?`;

// The patterns read text whose runs of white space are already one space (`compact`), and allow a space
// only as ` ?`: no two quantifiers next to each other can match the same characters, so a text that
// fails is refused after trying each quantifier's lengths once, never every way of splitting a run
// between them (which took time growing with the square, or the cube, of the length).

/** `12M`, `1.5B`, `250k`, `12,000,000`, `100M+`, `12 million` (spaces and case aside). */
const QUERIES_PATTERN = new RegExp(String.raw`^${DECIMAL} ?(k|thousand|m|million|b|bn|billion)? ?\+?$`, 'i');

/** `300`, `300 QPS`, `1.5k QPS`, `1,000qps`; at most three decimals. */
const PEAK_PATTERN = new RegExp(String.raw`^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,3}))? ?(?:(k) ?)?(?:qps ?)?\+?$`, 'i');

/** `25`, `25%`, `12.5 %`. */
const SHARE_PATTERN = /^(\d+(?:\.\d+)?) ?%?$/;

/**
 * The text a pattern reads: null when longer than `maxLength`, else trimmed, each run of white space
 * made one space.
 */
function compact(text: string, maxLength: number): string | null {
  return text.length > maxLength ? null : text.trim().replace(/\s+/g, ' ');
}

/**
 * `whole.fraction × 10^zeros`, exactly when the fraction has no more digits than `zeros` (integer
 * arithmetic on the digits, so `12.345M` is 12,345,000 and never 12,344,999.999…), else rounded to a
 * whole number.
 */
function scaled(whole: string, fraction: string, zeros: number): number {
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

/**
 * Reads a peak rate as the invite form's placeholder writes it.
 * @param text - e.g. `300`, `300 QPS`, `1.5k QPS`, `1,000qps`
 * @returns queries per second, more than 0; null when unreadable, 0, or longer than {@link PEAK_QPS_TEXT_MAX_LENGTH}
 */
export function parsePeakQps(text: string): number | null {
  const read = compact(text, PEAK_QPS_TEXT_MAX_LENGTH);
  const match = read === null ? null : PEAK_PATTERN.exec(read);
  if (!match) return null;
  const [, whole = '', fraction = '', thousands] = match;
  const qps = thousands ? scaled(whole, fraction, 3) : Number(`${whole.replace(/,/g, '')}.${fraction || '0'}`);
  return qps > 0 ? qps : null;
}

/**
 * Reads the share of the day spent at the peak.
 * @param text - a percentage: `25`, `25%`, `12.5 %`
 * @returns the share as a fraction, more than 0 and at most 1 (`25` → 0.25); null otherwise, and when
 *   longer than {@link SHARE_OF_DAY_TEXT_MAX_LENGTH}
 */
export function parseShareOfDay(text: string): number | null {
  const read = compact(text, SHARE_OF_DAY_TEXT_MAX_LENGTH);
  const match = read === null ? null : SHARE_PATTERN.exec(read);
  if (!match) return null;
  const percent = Number(match[1]);
  return percent > 0 && percent <= 100 ? percent / 100 : null;
}

/**
 * Queries per month from a peak: the peak rate held for that share of each day of a 30-day month, and
 * nothing the rest of the day (so, the least that such a peak implies).
 * @param peakQps - queries per second at the peak
 * @param shareOfDay - the fraction of each day at the peak, more than 0 and at most 1
 * @returns queries per month, rounded to a whole query: `peakQps × shareOfDay × 86,400 s × 30`
 */
export function queriesFromPeak(peakQps: number, shareOfDay: number): number {
  return Math.round(peakQps * shareOfDay * SECONDS_PER_DAY * DAYS_PER_MONTH);
}

/**
 * A peak rate as the invite form's `peakQPS` placeholder writes one: `300` → `300 QPS`, `1500` → `1,500 QPS`.
 * @param peakQps - queries per second
 */
export function formatPeakQps(peakQps: number): string {
  const [whole = '', fraction] = String(peakQps).split('.');
  return `${grouped(whole)}${fraction ? `.${fraction}` : ''} QPS`;
}

/** The figures of an estimate (spec §9 price, through monthlyCostUsd). */
export interface Estimate {
  /** queries per month */
  queriesPerMonth: number;
  /** US dollars a month, whole dollars (spec §9: $0.20 per 1,000 queries) */
  monthlyUsd: number;
  /** US dollars for twelve such months, whole dollars */
  yearlyUsd: number;
  /** queries per second on average over a 30-day month (QPS) */
  averageQps: number;
}

/**
 * The figures for a monthly volume: the cost at the beta price of spec §9 (`monthlyCostUsd`, the one
 * place the price is applied), a year of it, and the average rate over a 30-day month.
 * `estimate(12_000_000)` → $2,400 a month, $28,800 a year, 4.63 QPS.
 * @param queriesPerMonth - queries per month, 0 or more
 */
export function estimate(queriesPerMonth: number): Estimate {
  return {
    queriesPerMonth,
    monthlyUsd: monthlyCostUsd(queriesPerMonth),
    yearlyUsd: monthlyCostUsd(queriesPerMonth * 12),
    averageQps: queriesPerMonth / SECONDS_PER_MONTH,
  };
}

/**
 * The average rate as the section says it: `about 4.6 QPS on average` (one decimal under 10 QPS, whole
 * above, digits grouped), `under 0.1 QPS on average` below 0.05 QPS.
 * @param averageQps - queries per second
 */
export function averageQpsText(averageQps: number): string {
  const tenths = Math.round(averageQps * 10) / 10;
  if (tenths === 0) return 'under 0.1 QPS on average';
  const figure = tenths < 10 ? tenths.toFixed(1) : grouped(String(Math.round(averageQps)));
  return `about ${figure} QPS on average`;
}

/** The address's parameter that carries the estimate: `/?queries=12M#pricing`. */
export const QUERIES_PARAM = 'queries';

/**
 * The volume a shared address names.
 * @param search - the address's query, e.g. `?queries=12M`
 * @returns queries per month; null when absent, unreadable or above the largest volume (then it is ignored)
 */
export function queriesFromAddress(search: string): number | null {
  const text = new URLSearchParams(search).get(QUERIES_PARAM);
  if (text === null) return null;
  const reading = readQueries(text);
  return 'queries' in reading ? reading.queries : null;
}

/**
 * The address's query with the estimate written in, every other parameter kept.
 * @param search - the current query, e.g. `` or `?prerender`
 * @param queries - queries per month
 * @returns e.g. `?queries=12M`
 */
export function searchWithQueries(search: string, queries: number): string {
  const params = new URLSearchParams(search);
  params.set(QUERIES_PARAM, formatQueries(queries));
  return `?${params.toString()}`;
}
