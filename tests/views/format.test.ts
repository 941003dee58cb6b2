import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRICE_PER_1000_QUERIES_USD, PRICING_EXAMPLES } from '@/config/site';

// The figures of spec §9 are formatted without Intl (src/utils/format.ts): what the
// visitor reads must be what Intl.NumberFormat writes, and the page's figures must not start ICU.
const usdCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact' });
const intlUsd = (amount: number) => (Number.isInteger(amount) ? usdWhole : usdCents).format(amount);

/** format.ts as a page loads it: a fresh module, its lazily made formatters not made yet. */
async function freshFormat() {
  vi.resetModules();
  return import('@/utils/format');
}

afterEach(() => {
  vi.resetModules();
});

describe('formatUsd and formatCount', () => {
  it('write the figures of spec §9 as Intl.NumberFormat does, without making an Intl.NumberFormat', async () => {
    const { formatCount, formatUsd } = await freshFormat();
    const made = vi.spyOn(Intl, 'NumberFormat');
    expect(formatUsd(PRICE_PER_1000_QUERIES_USD)).toBe('$0.20');
    expect(PRICING_EXAMPLES.map(({ queriesPerMonth, monthlyUsd }) => `${formatCount(queriesPerMonth)}: ${formatUsd(monthlyUsd)}`)).toEqual([
      '5M: $1,000',
      '100M: $20,000',
    ]);
    expect(made).not.toHaveBeenCalled();
  });

  it('match Intl.NumberFormat for any amount of dollars and cents, and every count in whole millions', async () => {
    const { formatCount, formatUsd } = await freshFormat();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(formatUsd(cents / 100)).toBe(intlUsd(cents / 100));
        expect(formatUsd(cents)).toBe(intlUsd(cents));
      }),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.double({ min: 0, max: 1e25, noNaN: true }), (amount) => {
      expect(formatUsd(amount)).toBe(intlUsd(amount));
    }), { numRuns: 2000 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 999 }), (millions) => {
      expect(formatCount(millions * 1_000_000)).toBe(compact.format(millions * 1_000_000));
    }));
  });

  it('give Intl.NumberFormat\'s text for fractions of a cent, negative amounts and other counts', async () => {
    const { formatCount, formatUsd } = await freshFormat();
    for (const amount of [1.005, 0.125, -3, -0.5, -0, 1e21, 2 ** 80]) expect(formatUsd(amount)).toBe(intlUsd(amount));
    for (const count of [0, 999_999, 1_500_000, 1_000_000_000, 2_000_000_000, 12_345]) expect(formatCount(count)).toBe(compact.format(count));
  });
});
