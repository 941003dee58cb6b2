// The site's figures (spec §9: $0.20 per 1,000 queries, 5M ≈ $1,000 a month) are formatted by plain
// arithmetic, not Intl.NumberFormat: a page's first Intl object starts ICU, 12–21 ms in this Chromium
// at full speed (about four times that on a slow phone), and on / it fell inside the hero's hydration
// task (TBT, which `npm run bench` measures). The two formats are fixed (en-US, US dollars, whole
// millions), and tests/views/format.test.ts checks them against Intl.NumberFormat. Any other value
// goes to Intl.NumberFormat itself, made on first use.
let usdCents: Intl.NumberFormat | undefined;
let usdWhole: Intl.NumberFormat | undefined;
let compact: Intl.NumberFormat | undefined;

/** Digits grouped by thousands with commas, as en-US writes them: `20000` → `20,000`. */
export function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * US dollars, en-US: `0.2` → `$0.20`; whole amounts without cents: `1000` → `$1,000`.
 * @param amount - dollars; a non-negative amount whose shortest decimal form (`String(amount)`, which
 *   Intl rounds from too) has at most two decimals is formatted without Intl, anything else
 *   (`1.005`, `-3`, `1e21`) by Intl.NumberFormat
 */
export function formatUsd(amount: number): string {
  const decimal = Object.is(amount, -0) ? null : /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(amount));
  if (decimal) {
    const [, whole = '', cents] = decimal;
    return cents === undefined ? `$${grouped(whole)}` : `$${grouped(whole)}.${cents.padEnd(2, '0')}`;
  }
  if (Number.isInteger(amount)) {
    usdWhole ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    return usdWhole.format(amount);
  }
  usdCents ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
  return usdCents.format(amount);
}

/**
 * Query volumes, en-US compact notation: `5000000` → `5M`.
 * @param count - queries; whole millions from 1M to 999M are formatted without Intl, anything else by
 *   Intl.NumberFormat (`1500000` → `1.5M`, `2000000000` → `2B`)
 */
export function formatCount(count: number): string {
  const millions = count / 1_000_000;
  if (Number.isInteger(millions) && millions >= 1 && millions <= 999) return `${millions}M`;
  compact ??= new Intl.NumberFormat('en-US', { notation: 'compact' });
  return compact.format(count);
}
