import { get as idbGet, update as idbUpdate } from 'idb-keyval';
import { OUTBOX, STORAGE_KEYS } from '@/config/site';
import { SUBMITTED_AT_MAX_AGE_MS, type SubmissionBody } from '#shared/submission';

/**
 * Where the browser keeps submissions that have not reached the server yet: IndexedDB
 * through `idb-keyval` (one key, `STORAGE_KEYS.outbox`, in its default store), or localStorage where
 * IndexedDB is missing or throws (some private modes). Every change is a read-modify-write of the stored
 * list (`idb-keyval`'s `update` runs in one IndexedDB transaction), so two tabs adding at once do not
 * overwrite each other. Nothing here throws: a storage failure is logged and the caller keeps the entry
 * in memory for the page's life.
 */

/** One kept submission. */
export interface OutboxEntry {
  /** the submission's idempotency key (`Idempotency-Key`), unchanged on every attempt */
  key: string;
  /** the body of spec §7.1, exactly as first sent */
  body: SubmissionBody;
  /** when it was first kept, in ms since the epoch */
  keptAt: number;
  /** attempts made so far (the form's own attempt counts as the first) */
  attempts: number;
  /** when to send it next, in ms since the epoch */
  nextAttemptAt: number;
}

/** What a form hands over when its own attempt failed in a way that a later one may not. */
export interface KeepRequest {
  key: string;
  body: SubmissionBody;
  /** the server's `Retry-After` of the failed attempt, in ms, or null */
  retryAfterMs: number | null;
}

/**
 * The wait before attempt `attempts + 1`, in ms: `OUTBOX.retryBaseMs` doubling with each attempt up to
 * `OUTBOX.retryMaxMs`, with "equal jitter" (half fixed, half random) so that many browsers cut off by one
 * outage do not all come back at the same moment; never shorter than the server's `Retry-After`.
 * @param attempts - attempts made so far (≥ 1)
 * @param retryAfterMs - the server's `Retry-After`, in ms, or null
 * @param random - a number in [0, 1)
 */
export function retryDelayMs(attempts: number, retryAfterMs: number | null = null, random: number = Math.random()): number {
  const ceiling = Math.min(OUTBOX.retryMaxMs, OUTBOX.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.round(ceiling / 2 + (random * ceiling) / 2);
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * The entry a form's failed attempt becomes: that attempt counts as the first, the next one is due after
 * `retryDelayMs(1, request.retryAfterMs)`.
 * @param request - what the form hands over
 * @param now - the current time, in ms since the epoch
 */
export function keptEntry(request: KeepRequest, now: number = Date.now()): OutboxEntry {
  return { key: request.key, body: request.body, keptAt: now, attempts: 1, nextAttemptAt: now + retryDelayMs(1, request.retryAfterMs) };
}

/** A change to the stored list. */
type Change = { keep: OutboxEntry } | { remove: string };

/** Size of an entry's body as sent, in bytes of UTF-8 JSON. */
export function bodyBytes(body: SubmissionBody): number {
  return new TextEncoder().encode(JSON.stringify(body)).length;
}

function isEntry(value: unknown): value is OutboxEntry {
  const entry = value as Partial<OutboxEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.key === 'string' &&
    typeof entry.body === 'object' &&
    entry.body !== null &&
    typeof entry.keptAt === 'number' &&
    typeof entry.attempts === 'number' &&
    typeof entry.nextAttemptAt === 'number'
  );
}

/**
 * The outbox's limits, applied to a list: entries older than the server accepts
 * (`SUBMITTED_AT_MAX_AGE_MS`, judged by the body's `submittedAt`) and entries over `OUTBOX.maxEntryBytes`
 * are dropped, then the oldest beyond `OUTBOX.maxEntries`. Each drop is logged with its key only.
 * @param entries - any list, oldest first
 * @param now - the current time, in ms since the epoch
 * @returns the entries kept, oldest first
 */
export function pruneOutbox(entries: readonly OutboxEntry[], now: number = Date.now()): OutboxEntry[] {
  const kept = entries.filter((entry) => {
    const submittedAt = Date.parse(entry.body.data.submittedAt);
    const age = now - (Number.isNaN(submittedAt) ? entry.keptAt : submittedAt);
    if (age > SUBMITTED_AT_MAX_AGE_MS) {
      console.warn(`[outbox] dropped ${entry.key}: older than the server accepts`);
      return false;
    }
    if (bodyBytes(entry.body) > OUTBOX.maxEntryBytes) {
      console.warn(`[outbox] dropped ${entry.key}: larger than ${OUTBOX.maxEntryBytes} bytes`);
      return false;
    }
    return true;
  });
  const overflow = kept.length - OUTBOX.maxEntries;
  for (const entry of kept.slice(0, Math.max(0, overflow))) {
    console.warn(`[outbox] dropped ${entry.key}: more than ${OUTBOX.maxEntries} kept, the oldest goes first`);
  }
  return overflow > 0 ? kept.slice(overflow) : kept;
}

function applyChange(stored: unknown, change: Change): OutboxEntry[] {
  const entries = Array.isArray(stored) ? stored.filter(isEntry) : [];
  if ('remove' in change) return entries.filter((entry) => entry.key !== change.remove);
  return pruneOutbox([...entries.filter((entry) => entry.key !== change.keep.key), change.keep]);
}

function readLocal(): OutboxEntry[] {
  const raw = window.localStorage.getItem(STORAGE_KEYS.outbox);
  const parsed: unknown = raw ? JSON.parse(raw) : [];
  return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
}

function writeLocal(entries: OutboxEntry[]): void {
  if (entries.length === 0) window.localStorage.removeItem(STORAGE_KEYS.outbox);
  else window.localStorage.setItem(STORAGE_KEYS.outbox, JSON.stringify(entries));
}

/**
 * Reads every kept submission, from IndexedDB and from the localStorage fallback, pruned to the limits.
 * @returns the entries, oldest first; an empty list, logged, when both stores fail
 */
export async function loadOutbox(): Promise<OutboxEntry[]> {
  const found = new Map<string, OutboxEntry>();
  try {
    const stored: unknown = await idbGet(STORAGE_KEYS.outbox);
    if (Array.isArray(stored)) stored.filter(isEntry).forEach((entry) => found.set(entry.key, entry));
  } catch (error) {
    console.warn('[outbox] IndexedDB could not be read; trying localStorage', error);
  }
  try {
    readLocal().forEach((entry) => found.set(entry.key, entry));
  } catch (error) {
    console.warn('[outbox] localStorage could not be read', error);
  }
  return pruneOutbox([...found.values()].sort((a, b) => a.keptAt - b.keptAt));
}

async function change(change: Change): Promise<void> {
  try {
    await idbUpdate(STORAGE_KEYS.outbox, (stored: unknown) => applyChange(stored, change));
    return;
  } catch (error) {
    console.warn('[outbox] IndexedDB could not be written; using localStorage', error);
  }
  try {
    writeLocal(applyChange(readLocal(), change));
  } catch (error) {
    console.warn('[outbox] the submission could not be stored; it is kept only while this page is open', error);
  }
}

/** Keeps (or replaces, by key) one submission. Never rejects. */
export function keepInOutbox(entry: OutboxEntry): Promise<void> {
  return change({ keep: entry });
}

/**
 * Spec §4, §8: writes what a form hands to the outbox into storage, before the form moves on (the invite
 * form to /thank-you), so that closing the tab at once loses nothing: the next page load sends it. Small
 * on purpose (this module and idb-keyval, not the outbox machine), so that the forms import it at once.
 * @param request - what the form hands over; null (nothing was assembled) writes nothing
 * @returns resolves once written, or once both stores have failed (logged); never rejects
 */
export async function storeKeptRequest(request: KeepRequest | null): Promise<void> {
  if (request) await keepInOutbox(keptEntry(request));
}

/** Forgets one submission, by key: it was delivered, or refused for good. Never rejects. */
export async function removeFromOutbox(key: string): Promise<void> {
  await change({ remove: key });
  // an entry kept in the fallback while IndexedDB was failing may also be there
  try {
    if (window.localStorage.getItem(STORAGE_KEYS.outbox)) writeLocal(readLocal().filter((entry) => entry.key !== key));
  } catch {
    // already logged by change() when localStorage fails
  }
}
