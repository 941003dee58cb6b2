import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { createActor, type Actor } from 'xstate';
import type { KeepRequest, outboxMachine } from '#machines/outboxMachine';
import type { Inspect } from './inspect';

/** The app-wide submission outbox (docs/architecture.md, "No request lost"), as the forms see it. */
export interface Outbox {
  /** Hands a request the form could not deliver to the outbox, which keeps it and sends it again. */
  keep(request: KeepRequest | null): void;
}

/**
 * The outbox machine (machines/outboxMachine.ts) in a chunk of its own, with its storage (idb-keyval):
 * about 4 KB gzip that no page needs on its first load (DESIGN.md §4 budget). Its actor is started when the
 * provider's `startAfter` resolves, to send what earlier pages kept, or at once when a form hands it a
 * request before that.
 * `stop()` stops it; a later `start()` makes a new one (StrictMode mounts the provider twice).
 */
function lazyOutbox(inspect: Inspect | undefined) {
  let actor: Promise<Actor<typeof outboxMachine>> | undefined;
  const start = () =>
    (actor ??= import('#machines/outboxMachine').then(({ outboxMachine }) => createActor(outboxMachine, { inspect }).start()));
  return {
    start,
    stop() {
      const stopping = actor;
      actor = undefined;
      void stopping?.then((running) => running.stop());
    },
    keep(request: KeepRequest | null) {
      void start().then((running) => running.send({ type: 'outbox.keep', request }));
    },
  };
}

const OutboxContext = createContext<Outbox | null>(null);

/**
 * Provides the app-wide outbox (src/app/providers.tsx). Its actor starts once `startAfter()` resolves (an
 * effect, so never in the prerender), and stops when the app unmounts.
 * @param inspect - XState inspection observer for the outbox actor
 * @param startAfter - called once on mount; the actor starts when it resolves. The app passes an idle
 *   period after the load event: started in the effects' task that follows hydration, the import of the
 *   outbox's chunk would add Vite's `modulepreload` links to that task, one of the page's longest.
 */
export function OutboxProvider({ inspect, startAfter, children }: { inspect?: Inspect; startAfter: () => Promise<void>; children: ReactNode }) {
  const [outbox] = useState(() => lazyOutbox(inspect));
  useEffect(() => {
    let unmounted = false;
    void startAfter().then(() => {
      if (!unmounted) void outbox.start();
    });
    return () => {
      unmounted = true;
      outbox.stop();
    };
  }, [outbox, startAfter]);
  return <OutboxContext value={outbox}>{children}</OutboxContext>;
}

/** The app-wide outbox, for a form's `keepForRetry` action. */
export function useOutbox(): Outbox {
  const outbox = useContext(OutboxContext);
  if (!outbox) throw new Error('useOutbox: no OutboxProvider above (src/app/providers.tsx)');
  return outbox;
}
