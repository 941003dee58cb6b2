/**
 * A privacy request's due date (11 CCR §7021(b)) in the bands the team sees it in: the console's colours
 * (the DSR tools', Fides'): 10 days or more left green, under 10 amber, under 5 red, overdue on a red
 * ground. The console's badge, the command line's `list` and the server's metrics count days the same way.
 */

/** One day, in ms: days left are counted in whole days of this length. */
export const DAY_MS = 86_400_000;
/** Days left under which a due date is no longer green (amber). */
const DUE_SOON_DAYS = 10;
/** Days left under which a due date is red. */
const DUE_URGENT_DAYS = 5;

/** Where a due date stands: `overdue`, `under_5_days` (red), `under_10_days` (amber), `later` (green). */
export type DueBand = 'overdue' | 'under_5_days' | 'under_10_days' | 'later';

/**
 * Whole days from `now` until `dueAt`, rounded up: 0 on the due day (until it has passed by a whole
 * day), negative once overdue by a day or more.
 */
export function daysLeftUntil(dueAt: Date, now: Date): number {
  return Math.ceil((dueAt.getTime() - now.getTime()) / DAY_MS);
}

/** The band of a due date `daysLeft` days away ({@link daysLeftUntil}). */
export function dueBandOf(daysLeft: number): DueBand {
  if (daysLeft < 0) return 'overdue';
  if (daysLeft < DUE_URGENT_DAYS) return 'under_5_days';
  if (daysLeft < DUE_SOON_DAYS) return 'under_10_days';
  return 'later';
}

/**
 * The latest due date of each band at `now` for a due date not yet passed: what {@link dueBandOf} of
 * {@link daysLeftUntil} gives, as instants (whole days rounded up are under 5 exactly when at most 4 days
 * are left), so that a database counts a band as a range of due dates.
 */
export function dueBandEnds(now: Date): { under_5_days: Date; under_10_days: Date } {
  return {
    under_5_days: new Date(now.getTime() + (DUE_URGENT_DAYS - 1) * DAY_MS),
    under_10_days: new Date(now.getTime() + (DUE_SOON_DAYS - 1) * DAY_MS),
  };
}
