import { setup } from 'xstate';

/**
 * A stand-in for the console's sign-in chart: only what the console's pages send it, `session.ended`
 * when a call of the team's API answered 401 (no session, or it ended: idle, absolute limit, signed out
 * elsewhere, member removed). The console's shell replaces it with the whole chart (sign-in with a
 * passkey, the session, sign-out).
 */
export const teamSessionMachine = setup({
  types: {
    events: {} as { type: 'session.ended' },
  },
}).createMachine({
  id: 'teamSession',
  description: "The team member's session in the console: signed in until a call answers that it ended.",
  initial: 'signedIn',
  states: {
    signedIn: {
      description: 'Signed in: the console shows its pages.',
      on: { 'session.ended': { target: 'signedOut', description: 'A call answered 401: the session ended, the member signs in again.' } },
    },
    signedOut: { description: 'The session ended: the sign-in is shown.' },
  },
});
