import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** Lets pending promises, fetches and React renders settle under fake timers, without moving the clock on. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}

/** Moves the fake clock on by `ms` (a machine's named delay) and lets everything settle. */
export async function elapse(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  await settle();
}
