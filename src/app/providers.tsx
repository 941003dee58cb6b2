import { createActorContext } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { readGpcSignal, readStoredConsent } from '@/services/consentStore';
import { consentMachine, type ConsentInput } from '../../machines/consentMachine';
import { optOutToastMachine } from '../../machines/optOutToastMachine';

/** App-wide tracking consent (spec §4, §7.3). */
export const ConsentContext = createActorContext(consentMachine);

/** App-wide opt-out confirmation toast (spec §4, §9). */
export const OptOutToastContext = createActorContext(optOutToastMachine);

/**
 * Starts the app-wide machines once. The consent machine's input is read from the browser here
 * (stored preference, GPC signal), never inside a guard.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const [consentInput] = useState<ConsentInput>(() => ({ stored: readStoredConsent(), gpc: readGpcSignal() }));
  return (
    <ConsentContext.Provider options={{ input: consentInput }}>
      <OptOutToastContext.Provider>{children}</OptOutToastContext.Provider>
    </ConsentContext.Provider>
  );
}
