import { monthlyCostUsd } from '@/config/site';
import { grouped } from '@/utils/format';
import { compact, DAYS_PER_MONTH, formatQueries, readQueries, scaled, SECONDS_PER_DAY, SECONDS_PER_MONTH } from './volume';

// The cost estimator's arithmetic (spec §9: $0.20 per 1,000 queries, through monthlyCostUsd): pure
// functions from what the visitor wrote to the figures, so that the view holds only the text typed.
// A monthly volume is read and written by ./volume.ts; here, a peak rate, the share of the day at the
// peak, the estimate and the address that carries it.

/** Like `QUERIES_TEXT_MAX_LENGTH` (./volume.ts), for the peak rate (`1,000,000.125 QPS` is 17). */
export const PEAK_QPS_TEXT_MAX_LENGTH = 32;
/** Like `QUERIES_TEXT_MAX_LENGTH` (./volume.ts), for the share of the day (`12.5 %` is 6). */
export const SHARE_OF_DAY_TEXT_MAX_LENGTH = 16;

/** `300`, `300 QPS`, `1.5k QPS`, `1,000qps`; at most three decimals. */
const PEAK_PATTERN = new RegExp(String.raw`^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,3}))? ?(?:(k) ?)?(?:qps ?)?\+?$`, 'i');

/** `25`, `25%`, `12.5 %`. */
const SHARE_PATTERN = /^(\d+(?:\.\d+)?) ?%?$/;

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
const QUERIES_PARAM = 'queries';

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
