import { useState, type ReactNode } from 'react';
import type { ConsentInput } from '#machines/consentMachine';
import { ConsentContext, OptOutToastContext } from '@/context/actors';
import { InspectContext, type Inspect } from '@/context/inspect';
import { OutboxProvider } from '@/context/outbox';
import { OUTBOX } from '@/config/site';
import { readGpcSignal, readStoredConsent } from '@/services/consentStore';
import { idlePeriod } from '@/services/idle';
import { loadEventFired } from '@/utils/loadEvent';

/**
 * When the outbox starts, to send what earlier pages kept: the first idle period after the load event, at
 * most OUTBOX.startIdleTimeoutMs ms after it (src/context/outbox.tsx). The load event is the app's own
 * `loadEventFired`, the one the pages' chunks wait for: it stays in the first load's chunk that way, and
 * not in a chunk of its own that `/` would fetch beside its page (tests/build/bundle.test.ts).
 */
const startOutboxAfter = () => loadEventFired().then(() => idlePeriod(OUTBOX.startIdleTimeoutMs));

/**
 * Starts the app-wide machines once. The consent machine's input is read from the browser here
 * (stored preference, GPC signal), never inside a guard, and so is the outbox's start. `inspect` reaches
 * every actor of the app.
 */
export function AppProviders({ children, inspect }: { children: ReactNode; inspect?: Inspect }) {
  const [consentInput] = useState<ConsentInput>(() => ({ stored: readStoredConsent(), gpc: readGpcSignal() }));
  return (
    <InspectContext.Provider value={inspect}>
      <ConsentContext.Provider options={{ input: consentInput, inspect }}>
        <OptOutToastContext.Provider options={{ inspect }}>
          <OutboxProvider inspect={inspect} startAfter={startOutboxAfter}>{children}</OutboxProvider>
        </OptOutToastContext.Provider>
      </ConsentContext.Provider>
    </InspectContext.Provider>
  );
}
