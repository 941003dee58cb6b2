import { assign, fromPromise, setup } from 'xstate';
import { fetchSession, isCeremonyCancelled, signIn, signOut, TeamApiError } from '@/services/teamApi';
import type { TeamMember } from '#shared/team';
import { TEAM_OFFLINE_ERROR } from './teamCalls';
import { unlessAborted } from './abortable';

export interface TeamSessionContext {
  /** the member signed in; null while signed out */
  member: TeamMember | null;
  /** what the sign-in screen says of the last failure or of a session that ended; null when nothing went wrong */
  message: string | null;
}

/**
 * Events of the console's session. `session.ended` is sent by any view whose call answered 401 (the
 * session expired, was ended elsewhere, or the member was removed); `session.enrolled` by the enrollment
 * page once its passkey is registered (the server signed the member in with it).
 */
export type TeamSessionEvent =
  | { type: 'session.signIn' }
  | { type: 'session.signOut' }
  | { type: 'session.ended' }
  | { type: 'session.enrolled'; member: TeamMember };

/** Said when the member closed the passkey dialog or the browser refused the ceremony. */
export const SIGN_IN_CANCELLED = 'Sign-in was cancelled. Press the button to try again.';
/** Said when the server refused the passkey (401): unknown, or its member removed. */
export const SIGN_IN_REFUSED = 'That passkey was not accepted. Use a passkey registered for this console, or ask a teammate for a new link.';
/** Said when the server refused more attempts from this address for now (429). */
export const SIGN_IN_RATE_LIMITED = 'Too many attempts from your network. Wait a minute, then try again.';
/** Said when no answer came (offline, time-out): the console's one sentence for it (./teamCalls.ts). */
export const TEAM_OFFLINE = TEAM_OFFLINE_ERROR;
/** Said when this browser has no WebAuthn (`navigator.credentials`). */
export const PASSKEYS_UNSUPPORTED = 'This browser cannot use passkeys. Open the console in a current browser.';
/** Said on the sign-in screen when a call answered 401 while signed in. */
export const SESSION_ENDED = 'Your session ended. Sign in again.';
/** Said when signing out got no answer: the session may still be open. */
export const SIGN_OUT_FAILED = 'Signing out failed: the server could not be reached. Try again.';

/**
 * A failed passkey ceremony or its call (sign-in, enrollment), in the member's words: `words.cancelled`
 * when the dialog was closed or the ceremony refused by the browser; TEAM_OFFLINE when no answer came;
 * `words.refused` for a 401 when given; SIGN_IN_RATE_LIMITED for a 429; PASSKEYS_UNSUPPORTED when the
 * browser has no WebAuthn; else `${words.failed} (error N). Try again.` for another status, or
 * `${words.failed}: {message}. Try again.`
 */
export function passkeyFailureText(error: unknown, words: { cancelled: string; failed: string; refused?: string }): string {
  if (isCeremonyCancelled(error)) return words.cancelled;
  if (error instanceof TeamApiError) {
    if (error.status === null) return TEAM_OFFLINE;
    if (error.status === 401 && words.refused !== undefined) return words.refused;
    if (error.status === 429) return SIGN_IN_RATE_LIMITED;
    return `${words.failed} (error ${error.status}). Try again.`;
  }
  if (error instanceof Error && /not supported/i.test(error.message)) return PASSKEYS_UNSUPPORTED;
  return `${words.failed}: ${error instanceof Error ? error.message : 'unknown error'}. Try again.`;
}

/**
 * What the sign-in screen says of a failed ceremony or call, in the member's words: cancelled, refused
 * (401), rate-limited (429), offline, or another status.
 */
export function signInFailureText(error: unknown): string {
  return passkeyFailureText(error, { cancelled: SIGN_IN_CANCELLED, refused: SIGN_IN_REFUSED, failed: 'Sign-in failed' });
}

/**
 * The team console's session (`/team`): checked with the server as the console opens, then signed in
 * or out. Signing in is one passkey ceremony (WebAuthn Level 3 §7.2, a discoverable credential with user
 * verification required); the session itself lives on the server (a `__Host-` cookie this code never
 * reads), which ends it after 12 h idle or 7 days at most, or when the member is removed: the console
 * learns it from the next call's 401.
 */
export const teamSessionMachine = setup({
  types: {
    context: {} as TeamSessionContext,
    events: {} as TeamSessionEvent,
  },
  actors: {
    checkSession: fromPromise<TeamMember | null>(({ signal }) => unlessAborted(fetchSession(signal), signal)),
    signInWithPasskey: fromPromise<TeamMember>(() => signIn()),
    endSession: fromPromise<void>(() => signOut()),
  },
  actions: {
    storeMember: assign({ member: (_, member: TeamMember) => member, message: null }),
    forgetMember: assign({ member: null }),
    storeSignInFailure: assign({ message: (_, params: { error: unknown }) => signInFailureText(params.error) }),
    storeCheckFailure: assign({ message: (_, params: { error: unknown }) => (params.error instanceof TeamApiError && params.error.isSessionEnded ? null : signInFailureText(params.error)) }),
    storeSessionEnded: assign({ message: SESSION_ENDED }),
    storeSignOutFailure: assign({ message: SIGN_OUT_FAILED }),
    clearMessage: assign({ message: null }),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof TeamApiError && params.error.isSessionEnded,
  },
}).createMachine({
  id: 'teamSession',
  description: "The team console's session: checked, signed in with a passkey, signed out; a 401 anywhere ends it.",
  context: { member: null, message: null },
  initial: 'checking',
  on: {
    'session.enrolled': {
      target: '.signedIn',
      actions: { type: 'storeMember', params: ({ event }) => event.member },
      description: 'The enrollment page registered a passkey: the server signed its member in with it (while the session was checked, or after).',
    },
  },
  states: {
    checking: {
      description: 'GET /api/team/session: whether the browser holds a live session (its cookie is HttpOnly, so only the server knows).',
      invoke: {
        id: 'checkSession',
        src: 'checkSession',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'signedIn',
            actions: { type: 'storeMember', params: ({ event }) => event.output! },
            description: 'A live session: the console opens for its member.',
          },
          { target: 'signedOut', description: '204: no session, or it passed 12 h idle or 7 days in all.' },
        ],
        onError: {
          target: 'signedOut',
          actions: { type: 'storeCheckFailure', params: ({ event }) => ({ error: event.error }) },
          description: 'No answer, or the server could not tell (503): said on the sign-in screen.',
        },
      },
    },
    signedOut: {
      description: 'The sign-in screen: one button, "Sign in with a passkey". Passkeys only: there is no password.',
      initial: 'idle',
      states: {
        idle: {
          description: 'Waiting for the member; the last failure, if any, is said.',
          on: { 'session.signIn': { target: 'signingIn', actions: 'clearMessage', description: 'The member presses "Sign in with a passkey".' } },
        },
        signingIn: {
          description:
            "The passkey ceremony: the server's challenge, the browser's dialog (WebAuthn Level 3 §7.2, user verification required), the server's check. \"Waiting for your passkey…\"",
          invoke: {
            id: 'signInWithPasskey',
            src: 'signInWithPasskey',
            onDone: {
              target: '#teamSession.signedIn',
              actions: { type: 'storeMember', params: ({ event }) => event.output },
              description: 'The passkey was accepted: the server set the session cookie.',
            },
            onError: {
              target: 'idle',
              actions: { type: 'storeSignInFailure', params: ({ event }) => ({ error: event.error }) },
              description: 'Cancelled, refused (401), rate-limited (429) or offline: said, and the button is offered again.',
            },
          },
        },
      },
    },
    signedIn: {
      description: 'The console: the queue, a request, the cohorts, for the member signed in.',
      initial: 'active',
      on: {
        'session.ended': {
          target: '#teamSession.signedOut',
          actions: ['forgetMember', 'storeSessionEnded'],
          description: 'A call answered 401: the session passed 12 h idle or 7 days in all, was signed out elsewhere, or the member was removed.',
        },
      },
      states: {
        active: {
          description: 'Signed in; the header offers "Sign out".',
          on: { 'session.signOut': { target: 'signingOut', actions: 'clearMessage', description: 'The member presses "Sign out".' } },
        },
        signingOut: {
          description: 'POST /api/team/signout: the server deletes the session and clears its cookie.',
          invoke: {
            id: 'endSession',
            src: 'endSession',
            onDone: { target: '#teamSession.signedOut', actions: 'forgetMember', description: 'Signed out: the sign-in screen.' },
            onError: [
              {
                guard: { type: 'isSessionGone', params: ({ event }) => ({ error: event.error }) },
                target: '#teamSession.signedOut',
                actions: 'forgetMember',
                description: '401: the session had already ended, which is what was asked.',
              },
              {
                target: 'active',
                actions: 'storeSignOutFailure',
                description: 'No answer: the session may still be open; said, and "Sign out" is offered again.',
              },
            ],
          },
        },
      },
    },
  },
});
