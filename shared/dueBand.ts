/**
 * How near a privacy request's due date is (11 CCR §7021(b): 45 days, once 45 more), in the bands the
 * team's console colours and the team's daily digest lists: one rule for both.
 */

/** Days left under which a due date is no longer green (the DSR tools' amber), in whole days. */
export const DUE_SOON_DAYS = 10;

/** Days left under which a due date is red, in whole days. */
export const DUE_URGENT_DAYS = 5;

/** A due date's band: past due, under {@link DUE_URGENT_DAYS} days left, under {@link DUE_SOON_DAYS}, or later. */
export type DueBand = 'overdue' | 'under5' | 'under10' | 'later';

const DAY_MS = 86_400_000;

/**
 * Whole days left until `dueAt` at `now`, rounded up (a request due in 3 hours has 1 day left): so 0 or
 * less once the due moment has come, which is when the course's chart calls it overdue
 * (machines/privacyCourseMachine.ts). The `daysLeft` of a request summary (`#shared/team`).
 */
export function daysLeftOf(dueAt: Date, now: Date): number {
  return Math.ceil((dueAt.getTime() - now.getTime()) / DAY_MS);
}

/**
 * The band of a request with `daysLeft` whole days left ({@link daysLeftOf}): `overdue` at 0 or less
 * (its due moment has come), `under5` under {@link DUE_URGENT_DAYS}, `under10` under
 * {@link DUE_SOON_DAYS}, else `later`.
 */
export function dueBandOf(daysLeft: number): DueBand {
  if (daysLeft <= 0) return 'overdue';
  if (daysLeft < DUE_URGENT_DAYS) return 'under5';
  if (daysLeft < DUE_SOON_DAYS) return 'under10';
  return 'later';
}
