import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRICE_PER_1000_QUERIES_USD, PRICING_EXAMPLES } from '@/config/site';
import {
  averageQpsText,
  estimate,
  formatPeakQps,
  parsePeakQps,
  parseShareOfDay,
  PEAK_QPS_TEXT_MAX_LENGTH,
  SHARE_OF_DAY_TEXT_MAX_LENGTH,
  queriesFromAddress,
  queriesFromPeak,
  searchWithQueries,
} from '@/estimator/estimate';
import {
  formatQueries,
  MAX_QUERIES_PER_MONTH,
  parseQueries,
  QUERIES_TEXT_MAX_LENGTH,
  queriesInWords,
  readQueries,
  SLIDER_MAX_QUERIES,
  SLIDER_MIN_QUERIES,
  SLIDER_QUERIES,
  sliderPositionOf,
  sliderQueriesAt,
} from '@/estimator/volume';
import { formatUsd } from '@/utils/format';

// The cost estimator's arithmetic (src/estimator/ (volume.ts, estimate.ts)), spec §9: $0.20 per 1,000 queries.

/** Whole numbers of queries up to the largest volume read, spread over every order of magnitude. */
const volumes = fc.oneof(
  fc.integer({ min: 0, max: 999_999 }),
  fc.integer({ min: 0, max: MAX_QUERIES_PER_MONTH }),
  // round figures people write: a few significant digits times a power of ten
  fc.tuple(fc.integer({ min: 1, max: 9_999 }), fc.integer({ min: 0, max: 8 })).map(([digits, zeros]) => digits * 10 ** zeros),
);

describe('reading and writing a number of queries', () => {
  it('reads every form the issue and the invite form name', () => {
    expect(parseQueries('12M')).toBe(12_000_000);
    expect(parseQueries('1.5B')).toBe(1_500_000_000);
    expect(parseQueries('250k')).toBe(250_000);
    expect(parseQueries('12,000,000')).toBe(12_000_000);
    expect(parseQueries('100M+')).toBe(100_000_000);
    expect(parseQueries('  5m ')).toBe(5_000_000);
    expect(parseQueries('12 million')).toBe(12_000_000);
    expect(parseQueries('2bn')).toBe(2_000_000_000);
    expect(parseQueries('12.345M')).toBe(12_345_000);
    expect(parseQueries('0')).toBe(0);
  });

  it('refuses what is not one of those forms, rather than guess', () => {
    for (const text of ['', '   ', 'M', '12M5', '1e3', '1.2.3', '12,00', ',5M', '.5M', '-5M', 'twelve', '5 M queries', '12MB', '$5M']) {
      expect(parseQueries(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('writes a volume that it reads back as the same volume (property)', () => {
    fc.assert(
      fc.property(volumes, (queries) => {
        expect(parseQueries(formatQueries(queries))).toBe(queries);
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes the shortest form: 12M, 1.5B, 250k, 194.4M, digits grouped when no unit fits', () => {
    expect([12_000_000, 1_500_000_000, 250_000, 194_400_000, 12_345_678, 999, 1_000, 1_500_000_000_000].map(formatQueries)).toEqual([
      '12M',
      '1.5B',
      '250k',
      '194.4M',
      '12,345,678',
      '999',
      '1k',
      '1,500B',
    ]);
  });

  it('reads any number written with or without its thousands grouped, and with a unit (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_QUERIES_PER_MONTH }), fc.integer({ min: 0, max: 99_999 }), (queries, thousands) => {
        expect(parseQueries(String(queries))).toBe(queries);
        expect(parseQueries(queries.toLocaleString('en-US'))).toBe(queries);
        expect(parseQueries(`${thousands}k`)).toBe(thousands * 1_000);
        expect(parseQueries(`${thousands / 1000}M`)).toBe(thousands * 1_000);
      }),
    );
  });

  it('says so when a volume is unreadable or above the largest it estimates', () => {
    expect(readQueries('12M')).toEqual({ queries: 12_000_000 });
    expect(readQueries('12Mx')).toEqual({ problem: 'unreadable' });
    expect(readQueries(formatQueries(MAX_QUERIES_PER_MONTH))).toEqual({ queries: MAX_QUERIES_PER_MONTH });
    expect(readQueries(String(MAX_QUERIES_PER_MONTH + 1))).toEqual({ problem: 'tooMany' });
  });

  it('puts a volume in words for a screen reader', () => {
    expect([12_000_000, 1_500_000_000, 250_000, 100_000, 10_000_000_000, 12_345_678].map(queriesInWords)).toEqual([
      '12 million',
      '1.5 billion',
      '250 thousand',
      '100 thousand',
      '10 billion',
      '12,345,678',
    ]);
  });
});

describe('the figures (spec §9)', () => {
  it('gives the two examples of spec §9 at the configured price: 5M ≈ $1,000 a month, 100M ≈ $20,000', () => {
    expect(PRICE_PER_1000_QUERIES_USD).toBe(0.2);
    expect(estimate(5_000_000).monthlyUsd).toBe(1_000);
    expect(estimate(100_000_000).monthlyUsd).toBe(20_000);
    expect(PRICING_EXAMPLES.map(({ queriesPerMonth }) => estimate(queriesPerMonth).monthlyUsd)).toEqual(PRICING_EXAMPLES.map(({ monthlyUsd }) => monthlyUsd));
  });

  it('reads 12M as $2,400 a month, $28,800 a year and about 4.6 QPS on average', () => {
    const figures = estimate(parseQueries('12M')!);
    expect(formatUsd(figures.monthlyUsd)).toBe('$2,400');
    expect(formatUsd(figures.yearlyUsd)).toBe('$28,800');
    expect(averageQpsText(figures.averageQps)).toBe('about 4.6 QPS on average');
  });

  it('costs each query the configured price, a year twelve months, the average over 30 days (property)', () => {
    fc.assert(
      fc.property(volumes, (queries) => {
        const figures = estimate(queries);
        expect(Math.abs(figures.monthlyUsd - (queries / 1000) * PRICE_PER_1000_QUERIES_USD)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(figures.yearlyUsd - 12 * (queries / 1000) * PRICE_PER_1000_QUERIES_USD)).toBeLessThanOrEqual(0.5);
        expect(figures.averageQps * 30 * 86_400).toBeCloseTo(queries, 3);
      }),
    );
  });

  it('says the average rate with one decimal under 10 QPS, whole above, and never "about 0"', () => {
    expect(averageQpsText(estimate(100_000).averageQps)).toBe('under 0.1 QPS on average');
    expect(averageQpsText(estimate(5_000_000).averageQps)).toBe('about 1.9 QPS on average');
    expect(averageQpsText(estimate(100_000_000).averageQps)).toBe('about 39 QPS on average');
    expect(averageQpsText(estimate(10_000_000_000).averageQps)).toBe('about 3,858 QPS on average');
  });
});

describe('the slider: a logarithmic scale from 100k to 10B', () => {
  it('starts at 100k and ends at 10B, rising at every stop by a fifth to a third', () => {
    expect(SLIDER_QUERIES[0]).toBe(SLIDER_MIN_QUERIES);
    expect(SLIDER_QUERIES.at(-1)).toBe(SLIDER_MAX_QUERIES);
    expect(SLIDER_MIN_QUERIES).toBe(100_000);
    expect(SLIDER_MAX_QUERIES).toBe(10_000_000_000);
    for (let i = 1; i < SLIDER_QUERIES.length; i += 1) {
      const ratio = SLIDER_QUERIES[i]! / SLIDER_QUERIES[i - 1]!;
      expect(ratio, `${SLIDER_QUERIES[i - 1]} → ${SLIDER_QUERIES[i]}`).toBeGreaterThanOrEqual(1.2);
      expect(ratio).toBeLessThanOrEqual(1.34);
    }
    // ten stops for each power of ten: the same distance on the scale
    expect(sliderPositionOf(1_000_000) - sliderPositionOf(100_000)).toBe(10);
    expect(sliderPositionOf(10_000_000_000) - sliderPositionOf(1_000_000_000)).toBe(10);
  });

  it('stops at the examples and at values people write', () => {
    for (const queries of [5_000_000, 12_000_000, 100_000_000, 250_000, 1_500_000_000]) {
      expect(sliderQueriesAt(sliderPositionOf(queries))).toBe(queries);
    }
    for (const queries of SLIDER_QUERIES) expect(formatQueries(queries)).toMatch(/^\d+(\.\d)?[kMB]$/);
  });

  it('holds volumes beyond its ends at its ends, and positions beyond them at the ends', () => {
    const last = SLIDER_QUERIES.length - 1;
    expect(sliderPositionOf(0)).toBe(0);
    expect(sliderPositionOf(99_999)).toBe(0);
    expect(sliderPositionOf(100_000)).toBe(0);
    expect(sliderPositionOf(10_000_000_000)).toBe(last);
    expect(sliderPositionOf(MAX_QUERIES_PER_MONTH)).toBe(last);
    expect(sliderQueriesAt(-1)).toBe(100_000);
    expect(sliderQueriesAt(last + 1)).toBe(10_000_000_000);
  });

  it('puts a volume at the stop nearest on the scale, and a stop back at itself (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: SLIDER_MIN_QUERIES, max: SLIDER_MAX_QUERIES }), (queries) => {
        const stop = sliderQueriesAt(sliderPositionOf(queries));
        for (const other of SLIDER_QUERIES) {
          expect(Math.abs(Math.log(stop / queries))).toBeLessThanOrEqual(Math.abs(Math.log(other / queries)) + 1e-12);
        }
      }),
    );
    SLIDER_QUERIES.forEach((queries, position) => expect(sliderPositionOf(queries)).toBe(position));
  });
});

describe('the peak way in', () => {
  it('reads a peak as the invite form writes one, and a share of the day in percent', () => {
    expect(['300', '300 QPS', '1,000qps', '1.5k QPS', '2.5'].map(parsePeakQps)).toEqual([300, 300, 1_000, 1_500, 2.5]);
    for (const text of ['', '0', 'QPS', '3e2', '-300', '300 rps']) expect(parsePeakQps(text), text).toBeNull();
    expect(['25', '25%', '12.5 %', '100'].map(parseShareOfDay)).toEqual([0.25, 0.25, 0.125, 1]);
    for (const text of ['', '0', '101', '-5', 'half']) expect(parseShareOfDay(text), text).toBeNull();
  });

  it('makes queries per month from the peak held that share of each of 30 days', () => {
    expect(queriesFromPeak(300, 0.25)).toBe(194_400_000);
    expect(queriesFromPeak(100, 1)).toBe(259_200_000);
    expect(formatQueries(queriesFromPeak(300, 0.25))).toBe('194.4M');
    expect(formatPeakQps(300)).toBe('300 QPS');
    expect(formatPeakQps(1_500)).toBe('1,500 QPS');
    expect(parsePeakQps(formatPeakQps(2.5))).toBe(2.5);
  });
});

describe('the estimate in the address', () => {
  it('reads ?queries=, and ignores a value it cannot read', () => {
    expect(queriesFromAddress('?queries=12M')).toBe(12_000_000);
    expect(queriesFromAddress('?queries=12%2C000%2C000&x=1')).toBe(12_000_000);
    expect(queriesFromAddress('?queries=lots')).toBeNull();
    expect(queriesFromAddress(`?queries=${MAX_QUERIES_PER_MONTH * 10}`)).toBeNull();
    expect(queriesFromAddress('')).toBeNull();
  });

  it('writes the estimate in, keeping the other parameters', () => {
    expect(searchWithQueries('', 12_000_000)).toBe('?queries=12M');
    expect(searchWithQueries('?prerender&queries=5M', 1_500_000_000)).toBe('?prerender=&queries=1.5B');
    fc.assert(
      fc.property(volumes, (queries) => {
        expect(queriesFromAddress(searchWithQueries('?a=b', queries))).toBe(queries);
      }),
    );
  });
});

describe('the estimator reads hostile text in bounded work, and each field has a length limit', () => {
  const fields = [
    { name: 'queries per month', parse: parseQueries, limit: QUERIES_TEXT_MAX_LENGTH, valid: '12M', value: 12_000_000 },
    { name: 'peak QPS', parse: parsePeakQps, limit: PEAK_QPS_TEXT_MAX_LENGTH, valid: '1.5k QPS', value: 1500 },
    { name: 'share of the day', parse: parseShareOfDay, limit: SHARE_OF_DAY_TEXT_MAX_LENGTH, valid: '25 %', value: 0.25 },
  ] as const;

  afterEach(() => vi.restoreAllMocks());

  for (const { name, parse, limit, valid, value } of fields) {
    it(`${name}: a text of exactly ${limit} characters is read; ${limit + 1} are refused`, () => {
      expect(parse(valid.padStart(limit, ' '))).toBe(value);
      expect(parse(valid.padEnd(limit, ' '))).toBe(value);
      expect(parse(valid.padStart(limit + 1, ' '))).toBeNull();
    });

    it(`${name}: whatever its length, no pattern and no trim ever sees more than ${limit} characters (the work is bounded by the limit, not by the text)`, () => {
      const seen: number[] = [];
      const exec = RegExp.prototype.exec;
      vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, text: string) {
        seen.push(text.length);
        return exec.call(this, text);
      });
      const trim = String.prototype.trim;
      vi.spyOn(String.prototype, 'trim').mockImplementation(function (this: string) {
        seen.push(this.length);
        return trim.call(this);
      });
      // what the slow cases were made of: a digit, then runs of spaces (`+` in an address) and letters
      const hostile = fc
        .tuple(fc.constantFrom('1', '1.5', '1,000'), fc.array(fc.constantFrom(' ', '\t', 'x', 'k', 'qps', '+', '%', '1', ','), { maxLength: 300, size: 'max' }))
        .map(([start, rest]) => start + rest.join(''));
      fc.assert(
        fc.property(hostile, (text) => {
          seen.length = 0;
          const read = parse(text);
          return (text.length <= limit || read === null) && Math.max(0, ...seen) <= limit;
        }),
        { numRuns: 200, endOnFailure: true },
      );
      // the two cases measured in the browser: 15,000 spaces after a digit, 2,000 spaces in the peak
      seen.length = 0;
      expect(parse(`1${' '.repeat(15_000)}x`)).toBeNull();
      expect(parse(`1${' '.repeat(2_000)}`)).toBeNull();
      expect(Math.max(0, ...seen)).toBeLessThanOrEqual(limit);
    });
  }

  it('an address with a longer volume than the field takes is ignored', () => {
    expect(queriesFromAddress(`?queries=1${'+'.repeat(15_000)}x`)).toBeNull();
    expect(queriesFromAddress(`?queries=${'12M'.padStart(QUERIES_TEXT_MAX_LENGTH, '+')}`)).toBe(12_000_000);
  });
});
