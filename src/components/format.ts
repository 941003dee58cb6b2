const usdCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact' });

/** US dollars: `0.2` → `$0.20`; whole amounts without cents: `1000` → `$1,000`. */
export function formatUsd(amount: number): string {
  return Number.isInteger(amount) ? usdWhole.format(amount) : usdCents.format(amount);
}

/** Query volumes: `5000000` → `5M`. */
export function formatCount(count: number): string {
  return compact.format(count);
}
