import { afterEach } from 'vitest';

/** Something a test set up and must take down: a server to stop, a database to close, a file to remove. */
export type Cleanup = () => Promise<void> | void;

/**
 * The list a test pushes its cleanups onto; registers the `afterEach` hook (in the calling file or
 * `describe` block) that runs them after each test, last pushed first, and empties the list.
 * @returns the list (empty at the start of each test)
 */
export function cleanupAfterEach(): Cleanup[] {
  const cleanup: Cleanup[] = [];
  afterEach(async () => {
    for (const done of cleanup.splice(0).reverse()) await done();
  });
  return cleanup;
}
