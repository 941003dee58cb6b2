/**
 * Holds the forms' write of a kept request (`storeKeptRequest`, src/services/outboxStore.ts) until the
 * test releases it, so that a model test can see the form waiting for it (the `keeping` state of the
 * form machines, spec §4, §8). The write itself is the real one, into fake-indexeddb; only its start is
 * held. A test file routes the write here with `vi.mock` (tests/model/invite.model.test.tsx).
 */
let pending: Array<() => void> = [];

export const heldStorageWrites = {
  /** Runs `write` once released; what it resolves to is the write's own result. */
  hold(write: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      pending.push(() => void write().then(resolve, reject));
    });
  },
  /** Starts every held write. */
  release(): void {
    const writes = pending;
    pending = [];
    writes.forEach((write) => write());
  },
  /** Drops the held writes without running them (between tests, so that none writes into the next). */
  reset(): void {
    pending = [];
  },
};
