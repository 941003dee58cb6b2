import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { OUTBOX, SUBMIT_ENDPOINT } from '@/config/site';
import { keepInOutbox, loadOutbox } from '@/services/outboxStore';
import { outboxMachine, retryDelayMs } from '#machines/outboxMachine';
import { server } from '../../mocks/node';
import { keptRequest } from '../model/models';
import { network } from '../support/network';

describe('retryDelayMs (2 s doubling to 5 min, with jitter, Retry-After honoured)', () => {
  it('waits between half and all of 2 s before the first retry', () => {
    expect(retryDelayMs(1, null, 0)).toBe(OUTBOX.retryBaseMs / 2);
    expect(retryDelayMs(1, null, 0.999999)).toBe(OUTBOX.retryBaseMs);
  });

  it('doubles with each attempt', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, null, 0.999999))).toEqual([2_000, 4_000, 8_000, 16_000]);
  });

  it('never waits longer than 5 minutes, however many attempts failed', () => {
    expect(retryDelayMs(8, null, 0.999999)).toBe(256_000); // 2 s × 2^7, still under the cap; attempt 9 would be 512 s
    expect(retryDelayMs(9, null, 0.999999)).toBe(OUTBOX.retryMaxMs);
    expect(retryDelayMs(1000, null, 0.999999)).toBe(OUTBOX.retryMaxMs);
    expect(retryDelayMs(1000, null, 0)).toBe(OUTBOX.retryMaxMs / 2);
  });

  it("waits at least the server's Retry-After", () => {
    expect(retryDelayMs(1, 120_000, 0.5)).toBe(120_000);
    expect(retryDelayMs(4, 1_000, 0)).toBe(8_000);
  });
});

/** A running outbox with the real services (fetch through MSW, IndexedDB through fake-indexeddb). */
async function startOutbox() {
  const actor = createActor(outboxMachine).start();
  await waitFor(actor, (s) => !s.matches('loading'));
  return actor;
}

describe('outboxMachine', () => {
  it('sends what an earlier page kept as soon as it loads, and forgets it once stored', async () => {
    await keepInOutbox({ key: keptRequest.key, body: keptRequest.body, keptAt: Date.now(), attempts: 1, nextAttemptAt: Date.now() - 1 });
    const actor = await startOutbox();
    await waitFor(actor, (s) => s.matches('idle'));
    expect(network.delivered()).toEqual([keptRequest.body]);
    expect(network.submissions()[0]!.headers.get('Idempotency-Key')).toBe(keptRequest.key);
    expect(await loadOutbox()).toEqual([]);
  });

  it('a new page load is a new chance: a kept entry whose back-off ran long is sent at once, and the back-off resumes after it fails again', async () => {
    vi.useFakeTimers();
    server.use(http.post(SUBMIT_ENDPOINT, () => new HttpResponse(null, { status: 503 }), { once: true }));
    const now = Date.now();
    // an earlier page tried 8 times; its next attempt was 4 minutes away when the tab closed
    await keepInOutbox({ key: keptRequest.key, body: keptRequest.body, keptAt: now, attempts: 8, nextAttemptAt: now + 240_000 });
    const actor = createActor(outboxMachine).start();
    await vi.waitFor(() => expect(network.submissions()[0]?.status).toBe(503));
    expect(Date.now() - now).toBeLessThan(OUTBOX.retryBaseMs / 2); // not after the kept wait, nor after a first retry's
    await vi.waitFor(() => expect(actor.getSnapshot().matches('waiting')).toBe(true));
    const [entry] = actor.getSnapshot().context.entries;
    expect(entry!.attempts).toBe(9);
    expect(entry!.nextAttemptAt - Date.now()).toBeGreaterThanOrEqual(retryDelayMs(9, null, 0) - 100); // the back-off of a ninth failure
    await vi.waitFor(async () => expect((await loadOutbox())[0]?.attempts).toBe(9));
  });

  it("a 429 waits the server's Retry-After before the next attempt, then delivers", async () => {
    vi.useFakeTimers();
    server.use(http.post(SUBMIT_ENDPOINT, () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '120' } }), { once: true }));
    const actor = createActor(outboxMachine).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('loading')).toBe(false));
    actor.send({ type: 'outbox.keep', request: keptRequest });
    actor.send({ type: 'outbox.online' }); // send now
    await vi.waitFor(() => expect(network.submissions()[0]?.status).toBe(429));
    await vi.waitFor(() => expect(actor.getSnapshot().matches('waiting')).toBe(true));
    expect(actor.getSnapshot().context.entries[0]!.nextAttemptAt - Date.now()).toBeGreaterThanOrEqual(119_000);
    await vi.advanceTimersByTimeAsync(118_000);
    expect(network.submissions()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_100);
    await vi.waitFor(() => expect(network.delivered()).toHaveLength(1));
  });

  it('drops and logs a submission the server refuses for good (400): it is not retried', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post(SUBMIT_ENDPOINT, () => HttpResponse.json({ error: 'data.workEmail: Invalid email' }, { status: 400 })));
    const actor = await startOutbox();
    actor.send({ type: 'outbox.keep', request: keptRequest });
    actor.send({ type: 'outbox.online' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(network.submissions()).toHaveLength(1);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('refused a kept submission'), 'HTTP error! status: 400');
    expect(await loadOutbox()).toEqual([]);
  });

  it('keeps retrying through network errors and 5xx, with the same key and body every time', async () => {
    vi.useFakeTimers();
    let failures = 3;
    server.use(
      http.post(SUBMIT_ENDPOINT, () => {
        if (failures-- <= 0) return undefined; // the default handler: the server's checks, then 201
        return failures % 2 ? HttpResponse.error() : new HttpResponse(null, { status: 503 });
      }),
    );
    const actor = createActor(outboxMachine).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('loading')).toBe(false));
    actor.send({ type: 'outbox.keep', request: keptRequest });
    for (let i = 0; i < 4 && network.delivered().length === 0; i += 1) {
      await vi.advanceTimersByTimeAsync(OUTBOX.retryBaseMs * 2 ** i);
      await vi.waitFor(() => expect(actor.getSnapshot().matches('sending')).toBe(false));
    }
    expect(network.delivered()).toHaveLength(1);
    expect(network.submissions()).toHaveLength(4);
    expect(new Set(network.submissions().map((request) => request.headers.get('Idempotency-Key')))).toEqual(new Set([keptRequest.key]));
    expect(new Set(network.submissions().map((request) => JSON.stringify(request.body))).size).toBe(1);
  });
});
