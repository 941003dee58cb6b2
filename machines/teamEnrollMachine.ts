import { assign, fromPromise, setup } from 'xstate';
import { enroll, TeamApiError } from '@/services/teamApi';
import type { TeamMember } from '#shared/team';
import { passkeyFailureText } from './teamSessionMachine';

/** Where the enrollment link's token is: the one the entry kept from the fragment, or null when the address had none (or one cut short). */
export interface TeamEnrollInput {
  token: string | null;
}

export interface TeamEnrollContext {
  token: string | null;
  /** the member the link enrolled, once registered */
  member: TeamMember | null;
  /** why the last attempt failed, shown until the next one; null when none did */
  error: string | null;
}

/** Events of the enrollment page. */
export type TeamEnrollEvent = { type: 'enroll.register' };

/** Said when the member closed the passkey dialog or the browser refused the ceremony. */
export const ENROLL_CANCELLED = 'No passkey was created: the dialog was closed. Press the button to try again.';

/** What the enrollment page says of a failed attempt that another may fix: cancelled, rate-limited (429), offline, or another status. */
export function enrollFailureText(error: unknown): string {
  return passkeyFailureText(error, { cancelled: ENROLL_CANCELLED, failed: 'The passkey could not be registered' });
}

/**
 * The page an enrollment link opens (`/team/enroll#token=…`, made by `npm run requests -- team add|link`):
 * single-use, 24 h, only its SHA-256 kept by the server. One button registers this device's passkey, a
 * discoverable credential with user verification required (WebAuthn Level 3 §5.4.4, §5.4.6), and the
 * server signs its member in; a link used, expired or revoked is gone (410), and only the team's command
 * line makes a new one.
 */
export const teamEnrollMachine = setup({
  types: {
    context: {} as TeamEnrollContext,
    events: {} as TeamEnrollEvent,
    input: {} as TeamEnrollInput,
  },
  actors: {
    registerPasskey: fromPromise<TeamMember, { token: string }>(({ input }) => enroll(input.token)),
  },
  actions: {
    storeMember: assign({ member: (_, member: TeamMember) => member }),
    storeError: assign({ error: (_, params: { error: unknown }) => enrollFailureText(params.error) }),
    clearError: assign({ error: null }),
    /** Provided by the view (`machine.provide`): the session machine hears `session.enrolled` with the member. */
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the signature types the view's params
    handOverSession: (_, _member: TeamMember) => {},
    /** Provided by the view (`machine.provide`): the console's queue, `/team`. */
    goToConsole: () => {},
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isLinkGone: (_, params: { error: unknown }) => params.error instanceof TeamApiError && params.error.status === 410,
  },
}).createMachine({
  id: 'teamEnroll',
  description: 'An enrollment link: one button registers this device’s passkey, and signs its member in.',
  context: ({ input }) => ({ token: input.token, member: null, error: null }),
  initial: 'opening',
  states: {
    opening: {
      description: "The token the entry took out of the address bar (src/main.tsx), before anything else ran.",
      always: [
        { guard: 'hasToken', target: 'ready', description: 'A well-formed token: 43 characters of base64url.' },
        { target: 'noToken', description: 'No token, or one cut short.' },
      ],
    },
    noToken: {
      type: 'final',
      description: 'The address carries no link: ask the team for a new one (`npm run requests -- team link <email>`).',
    },
    ready: {
      description: 'What happens, and one button: "Create a passkey for this device".',
      on: { 'enroll.register': { target: 'registering', actions: 'clearError', description: 'The member presses the button.' } },
    },
    registering: {
      description:
        "The server's creation options for the link's member, the browser's dialog (user verification required, a discoverable credential), the server's check: the passkey stored and the link used, in one transaction.",
      invoke: {
        id: 'registerPasskey',
        src: 'registerPasskey',
        input: ({ context }) => ({ token: context.token! }),
        onDone: {
          target: 'enrolled',
          actions: [
            { type: 'storeMember', params: ({ event }) => event.output },
            { type: 'handOverSession', params: ({ event }) => event.output },
            { type: 'goToConsole' },
          ],
          description: 'Registered: the server set the session cookie; the session hears of its member, and the console opens at its queue.',
        },
        onError: [
          {
            guard: { type: 'isLinkGone', params: ({ event }) => ({ error: event.error }) },
            target: 'gone',
            description: '410: the link was used, expired (24 h) or revoked.',
          },
          {
            target: 'failed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'Cancelled, rate-limited (429) or offline: said, and the member can try again.',
          },
        ],
      },
    },
    failed: {
      description: 'The attempt failed; the link is still good: the reason, and the button again.',
      on: { 'enroll.register': { target: 'registering', actions: 'clearError', description: 'The member tries again.' } },
    },
    gone: {
      type: 'final',
      description: 'The link cannot be used again: ask the team for a new one (`npm run requests -- team link <email>`).',
    },
    enrolled: {
      type: 'final',
      description: 'Signed in with the new passkey.',
    },
  },
});
