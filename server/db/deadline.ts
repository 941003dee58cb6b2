/** A piece of work that did not end within its deadline ({@link withDeadline}). Its message says how long it had. */
export class DeadlineError extends Error {}

/**
 * `work`, or a {@link DeadlineError} (`no answer within <ms> ms`) once `ms` have passed without it
 * ending. The work itself goes on: what it does later is the caller's to allow for (a statement that
 * still commits is answered as a replay of its idempotency key; a delivery's outcome only counts under
 * its lease).
 */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
