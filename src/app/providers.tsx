import { useState, type ReactNode } from 'react';
import type { ConsentInput } from '#machines/consentMachine';
import { ConsentContext, OptOutToastContext } from '@/context/actors';
import { InspectContext, type Inspect } from '@/context/inspect';
import { OutboxProvider } from '@/context/outbox';
import { OUTBOX } from '@/config/site';
import { readGpcSignal, readStoredConsent } from '@/services/consentStore';
import { afterLoadWhenIdle } from '@/services/idle';

/** When the outbox starts, to send what earlier pages kept: an idle period after the load event (src/context/outbox.tsx). */
const startOutboxAfter = () => afterLoadWhenIdle(OUTBOX.startIdleTimeoutMs);

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
