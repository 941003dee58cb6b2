import { createActorContext } from '@xstate/react';
import { teamSessionMachine } from '#machines/teamSessionMachine';

// The team console's app-wide machine (machines/teamSessionMachine.ts), started once by the console's
// app (src/app/team/TeamApp.tsx), which has its own providers: none of the public site's (consent,
// analytics). Its pages send `{ type: 'session.ended' }` through it when a call answers 401.

/** The console's session: checked, signed in with a passkey, signed out. */
export const TeamSessionContext = createActorContext(teamSessionMachine);
