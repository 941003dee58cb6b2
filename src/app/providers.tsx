import { useState, type ReactNode } from 'react';
import type { ConsentInput } from '#machines/consentMachine';
import { ConsentContext, OptOutToastContext } from '@/context/actors';
import { InspectContext, type Inspect } from '@/context/inspect';
import { OutboxProvider } from '@/context/outbox';
import { readGpcSignal, readStoredConsent } from '@/services/consentStore';

/**
 * Starts the app-wide machines once. The consent machine's input is read from the browser here
 * (stored preference, GPC signal), never inside a guard. `inspect` reaches every actor of the app.
 */
export function AppProviders({ children, inspect }: { children: ReactNode; inspect?: Inspect }) {
  const [consentInput] = useState<ConsentInput>(() => ({ stored: readStoredConsent(), gpc: readGpcSignal() }));
  return (
    <InspectContext.Provider value={inspect}>
      <ConsentContext.Provider options={{ input: consentInput, inspect }}>
        <OptOutToastContext.Provider options={{ inspect }}>
          <OutboxProvider inspect={inspect}>{children}</OutboxProvider>
        </OptOutToastContext.Provider>
      </ConsentContext.Provider>
    </InspectContext.Provider>
  );
}
