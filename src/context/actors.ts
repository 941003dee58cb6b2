import { createActorContext } from '@xstate/react';
import { consentMachine } from '#machines/consentMachine';
import { optOutToastMachine } from '#machines/optOutToastMachine';

// The app-wide machines' React contexts (the outbox's is src/context/outbox.tsx: its machine loads later). Started once by AppProviders (src/app/providers.tsx); read by
// pages and components, which may not import from src/app (one-way layering, eslint.config.js).

/** App-wide tracking consent (spec §4, §7.3). */
export const ConsentContext = createActorContext(consentMachine);

/** App-wide opt-out confirmation toast (spec §4, §9). */
export const OptOutToastContext = createActorContext(optOutToastMachine);
