import { createActorContext } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { readGpcSignal, readStoredConsent } from '@/services/consentStore';
import { consentMachine, type ConsentInput } from '../../machines/consentMachine';
import { optOutToastMachine } from '../../machines/optOutToastMachine';
import { InspectContext, type Inspect } from './inspect';

/** App-wide tracking consent (spec §4, §7.3). */
export const ConsentContext = createActorContext(consentMachine);

/** App-wide opt-out confirmation toast (spec §4, §9). */
export const OptOutToastContext = createActorContext(optOutToastMachine);

/**
 * Starts the app-wide machines once. The consent machine's input is read from the browser here
 * (stored preference, GPC signal), never inside a guard. `inspect` reaches every actor of the app.
 */
export function AppProviders({ children, inspect }: { children: ReactNode; inspect?: Inspect }) {
  const [consentInput] = useState<ConsentInput>(() => ({ stored: readStoredConsent(), gpc: readGpcSignal() }));
  return (
    <InspectContext.Provider value={inspect}>
      <ConsentContext.Provider options={{ input: consentInput, inspect }}>
        <OptOutToastContext.Provider options={{ inspect }}>{children}</OptOutToastContext.Provider>
      </ConsentContext.Provider>
    </InspectContext.Provider>
  );
}
