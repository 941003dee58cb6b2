// Made on first use, not when the module loads: the page's first Intl object starts ICU, which is a long
// task on a slow phone (issue #13), and / hydrates the hero and the pricing in tasks of their own.
let usdCents: Intl.NumberFormat | undefined;
let usdWhole: Intl.NumberFormat | undefined;
let compact: Intl.NumberFormat | undefined;

/** US dollars: `0.2` → `$0.20`; whole amounts without cents: `1000` → `$1,000`. */
export function formatUsd(amount: number): string {
  if (Number.isInteger(amount)) {
    usdWhole ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    return usdWhole.format(amount);
  }
  usdCents ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
  return usdCents.format(amount);
}

/** Query volumes: `5000000` → `5M`. */
export function formatCount(count: number): string {
  compact ??= new Intl.NumberFormat('en-US', { notation: 'compact' });
  return compact.format(count);
}
