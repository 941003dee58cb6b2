/**
 * How near a privacy request's due date is (11 CCR §7021(b): 45 days, once 45 more), in the bands the
 * team sees it in: the console's colours (the DSR tools', Fides'): 10 days or more left green, under 10
 * amber, under 5 red, overdue on a red ground. One rule for the console's badge, the command line's
 * `list`, the team's daily digest and the server's metrics.
 */

/** One day, in ms: days left are counted in whole days of this length. */
export const DAY_MS = 86_400_000;

/** Days left under which a due date is no longer green (the DSR tools' amber), in whole days. */
export const DUE_SOON_DAYS = 10;

/** Days left under which a due date is red, in whole days. */
export const DUE_URGENT_DAYS = 5;

/**
 * A due date's band: `overdue` (its due moment has come), `under_5_days` (red, under
 * {@link DUE_URGENT_DAYS} days left), `under_10_days` (amber, under {@link DUE_SOON_DAYS}), `later`
 * (green). The names are also the metrics' label values (server/metrics.ts).
 */
export type DueBand = 'overdue' | 'under_5_days' | 'under_10_days' | 'later';

/**
 * Whole days left until `dueAt` at `now`, rounded up (a request due in 3 hours has 1 day left): so 0 or
 * less once the due moment has come, which is when the course's chart calls it overdue
 * (machines/privacyCourseMachine.ts). The `daysLeft` of a request summary (`#shared/team`).
 */
export function daysLeftUntil(dueAt: Date, now: Date): number {
  return Math.ceil((dueAt.getTime() - now.getTime()) / DAY_MS);
}

/**
 * The band of a request with `daysLeft` whole days left ({@link daysLeftUntil}): `overdue` at 0 or less,
 * `under_5_days` under {@link DUE_URGENT_DAYS}, `under_10_days` under {@link DUE_SOON_DAYS}, else `later`.
 */
export function dueBandOf(daysLeft: number): DueBand {
  if (daysLeft <= 0) return 'overdue';
  if (daysLeft < DUE_URGENT_DAYS) return 'under_5_days';
  if (daysLeft < DUE_SOON_DAYS) return 'under_10_days';
  return 'later';
}

/**
 * The latest due date of each band at `now` for a due date not yet come: what {@link dueBandOf} of
 * {@link daysLeftUntil} gives, as instants (whole days rounded up are under 5 exactly when at most 4 days
 * are left), so that a database counts a band as a range of due dates.
 */
export function dueBandEnds(now: Date): { under_5_days: Date; under_10_days: Date } {
  return {
    under_5_days: new Date(now.getTime() + (DUE_URGENT_DAYS - 1) * DAY_MS),
    under_10_days: new Date(now.getTime() + (DUE_SOON_DAYS - 1) * DAY_MS),
  };
}
