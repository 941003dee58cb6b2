import { expect, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { SUBMIT_TIMEOUT_MS } from '@/config/site';
import { loadOutbox } from '@/services/outboxStore';
import { outboxMachine } from '#machines/outboxMachine';
import { heldNetwork, network } from '../support/network';
import { outboxModel, statusOf } from './models';
import { describeModel } from './runner';
import { elapse, settle } from './steps';

/**
 * The outbox has no view of its own: what shows is what crosses the network (each attempt, with its
 * Idempotency-Key) and what is kept in the browser's storage. The machine runs with its real services
 * (IndexedDB through fake-indexeddb, fetch through MSW); only the first read of storage is held, so that
 * `loading` can be seen.
 */
function startOutbox() {
  let openStorage = () => {};
  const storageOpen = new Promise<void>((resolve) => (openStorage = resolve));
  const machine = outboxMachine.provide({
    actors: {
      loadOutbox: fromPromise(async () => {
        await storageOpen;
        return loadOutbox();
      }),
    },
  });
  const held = heldNetwork();
  const actor = createActor(machine).start();
  return { actor, openStorage, held };
}

type Session = ReturnType<typeof startOutbox>;

describeModel<Session>(outboxModel, {
  start: startOutbox,
  actions: {
    'xstate.done.actor.loadOutbox': async ({ openStorage }) => openStorage(),
    'outbox.keep': async ({ actor }, _before, event) => actor.send(event as { type: 'outbox.keep'; request: null }),
    'outbox.online': async () => window.dispatchEvent(new Event('online')),
    'xstate.after.untilNextAttempt.outbox.waiting': ({ actor }) =>
      elapse(Math.max(0, ...actor.getSnapshot().context.entries.map((entry) => entry.nextAttemptAt - Date.now()))),
    'xstate.done.actor.sendEntry': async ({ held }) => held.answerPost(201),
    'xstate.error.actor.sendEntry': async ({ held }, _before, event) => held.answerPost(statusOf(event)),
    'xstate.after.submitTimeout.outbox.sending': () => elapse(SUBMIT_TIMEOUT_MS),
  },
  expectView: async (state, { actor }) => {
    await settle();
    expect(actor.getSnapshot().value).toEqual(state.value);
    // storage holds exactly what the machine keeps (writes are asynchronous)
    const keys = state.context.entries.map((entry: { key: string }) => entry.key);
    if (!state.matches('loading')) await vi.waitFor(async () => expect((await loadOutbox()).map((entry) => entry.key)).toEqual(keys));
    // the attempt under way is the kept body, sent with its key
    const attempts = network.submissions();
    if (state.matches('sending')) {
      expect(attempts.at(-1)?.headers.get('Idempotency-Key')).toBe(keys[0]);
      expect(attempts.at(-1)?.body).toEqual(state.context.entries[0].body);
    }
  },
});
