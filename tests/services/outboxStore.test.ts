import { get as idbGet, set as idbSet, update as idbUpdate } from 'idb-keyval';
import type * as IdbKeyval from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { OUTBOX, STORAGE_KEYS } from '@/config/site';
import { bodyBytes, keepInOutbox, loadOutbox, pruneOutbox, removeFromOutbox, type OutboxEntry } from '@/services/outboxStore';
import { SUBMITTED_AT_MAX_AGE_MS } from '#shared/submission';
import { keptRequest } from '../model/models';

// IndexedDB failing (a private mode, a blocked origin): idb-keyval's calls are spied on, so that a test can make them reject.
vi.mock('idb-keyval', async (importOriginal) => {
  const real = await importOriginal<typeof IdbKeyval>();
  return { ...real, get: vi.fn(real.get), update: vi.fn(real.update) };
});

function failIndexedDb() {
  const blocked = new DOMException('blocked', 'SecurityError');
  vi.mocked(idbUpdate).mockRejectedValue(blocked);
  vi.mocked(idbGet).mockRejectedValue(blocked);
}

const NOW = Date.parse('2026-11-23T12:00:00Z');

/** A kept submission `n`, sent `ageMs` before NOW, with `padding` extra characters in its notes. */
function entry(n: number, ageMs = 0, padding = 0): OutboxEntry {
  const body = {
    ...keptRequest.body,
    data: { ...keptRequest.body.data, submittedAt: new Date(NOW - ageMs).toISOString(), notes: 'x'.repeat(padding) },
  };
  return { key: `key-${n}`, body, keptAt: NOW - ageMs + n, attempts: 1, nextAttemptAt: NOW };
}

/** An entry whose JSON body is exactly `bytes` long. */
function entryOfSize(n: number, bytes: number): OutboxEntry {
  const base = entry(n);
  return entry(n, 0, bytes - bodyBytes(base.body));
}

describe('the outbox limits', () => {
  it(`keeps ${OUTBOX.maxEntries} entries; one more drops the oldest, with a warning`, () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const full = Array.from({ length: OUTBOX.maxEntries }, (_, n) => entry(n));
    expect(pruneOutbox(full, NOW)).toHaveLength(OUTBOX.maxEntries);
    expect(warn).not.toHaveBeenCalled();
    const kept = pruneOutbox([...full, entry(OUTBOX.maxEntries)], NOW);
    expect(kept.map((e) => e.key)).toEqual(full.slice(1).map((e) => e.key).concat(`key-${OUTBOX.maxEntries}`));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('dropped key-0'));
  });

  it(`keeps a body of exactly ${OUTBOX.maxEntryBytes} bytes and drops one byte more`, () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const atLimit = entryOfSize(1, OUTBOX.maxEntryBytes);
    const over = entryOfSize(2, OUTBOX.maxEntryBytes + 1);
    expect(bodyBytes(atLimit.body)).toBe(OUTBOX.maxEntryBytes);
    expect(pruneOutbox([atLimit, over], NOW).map((e) => e.key)).toEqual(['key-1']);
  });

  it('keeps a submission exactly 30 days old (the server still accepts it) and drops an older one', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const kept = pruneOutbox([entry(1, SUBMITTED_AT_MAX_AGE_MS), entry(2, SUBMITTED_AT_MAX_AGE_MS + 1)], NOW);
    expect(kept.map((e) => e.key)).toEqual(['key-1']);
  });
});

describe('outbox storage', () => {
  it('keeps, replaces by key, and forgets entries in IndexedDB', async () => {
    await keepInOutbox(entry(1));
    await keepInOutbox({ ...entry(1), attempts: 3 });
    await keepInOutbox(entry(2));
    expect((await idbGet(STORAGE_KEYS.outbox)) as OutboxEntry[]).toHaveLength(2);
    expect((await loadOutbox()).map((e) => [e.key, e.attempts])).toEqual([
      ['key-1', 3],
      ['key-2', 1],
    ]);
    await removeFromOutbox('key-1');
    expect((await loadOutbox()).map((e) => e.key)).toEqual(['key-2']);
    expect(localStorage.getItem(STORAGE_KEYS.outbox)).toBeNull();
  });

  it('ignores what is not an entry (storage edited by hand, an older format)', async () => {
    await idbSet(STORAGE_KEYS.outbox, [entry(1), { key: 'half' }, 'junk']);
    expect((await loadOutbox()).map((e) => e.key)).toEqual(['key-1']);
  });

  it('falls back to localStorage when IndexedDB throws, logged, and reads both', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await keepInOutbox(entry(1)); // IndexedDB works
    failIndexedDb();
    await keepInOutbox(entry(2));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.outbox)!)).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('IndexedDB could not be written'), expect.anything());
    vi.mocked(idbUpdate).mockRestore();
    vi.mocked(idbGet).mockRestore();
    expect((await loadOutbox()).map((e) => e.key).sort()).toEqual(['key-1', 'key-2']);
    await removeFromOutbox('key-2');
    expect(localStorage.getItem(STORAGE_KEYS.outbox)).toBeNull();
  });

  it('never rejects when every store throws: the failure is logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    failIndexedDb();
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    await expect(keepInOutbox(entry(1))).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('kept only while this page is open'), expect.any(DOMException));
    await expect(loadOutbox()).resolves.toEqual([]);
  });
});
