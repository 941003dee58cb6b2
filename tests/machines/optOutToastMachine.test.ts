import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { optOutToastMachine } from '#machines/optOutToastMachine';

describe('optOutToastMachine (spec §4, §9)', () => {
  it('shows for 3000 ms: still visible at 2999 ms, hidden at 3000 ms', () => {
    vi.useFakeTimers();
    const actor = createActor(optOutToastMachine).start();
    expect(actor.getSnapshot().value).toBe('hidden');
    actor.send({ type: 'toast.show' });
    expect(actor.getSnapshot().value).toBe('visible');
    vi.advanceTimersByTime(2999);
    expect(actor.getSnapshot().value).toBe('visible');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('hidden');
  });

  it('a second press while shown restarts the 3 seconds', () => {
    vi.useFakeTimers();
    const actor = createActor(optOutToastMachine).start();
    actor.send({ type: 'toast.show' });
    vi.advanceTimersByTime(2000);
    actor.send({ type: 'toast.show' });
    vi.advanceTimersByTime(2999);
    expect(actor.getSnapshot().value).toBe('visible');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('hidden');
  });

  it('can be dismissed early', () => {
    const actor = createActor(optOutToastMachine).start();
    actor.send({ type: 'toast.show' });
    actor.send({ type: 'toast.dismiss' });
    expect(actor.getSnapshot().value).toBe('hidden');
  });
});
