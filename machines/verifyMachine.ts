import { assign, fromPromise, setup } from 'xstate';
import { VERIFICATION_TIMEOUT_MS } from '@/config/site';
import { confirmVerification, lookUpVerification, VerificationError, type VerificationAnswer } from '@/services/verification';
import { verificationTokenOf } from '#shared/verification';
import { unlessAborted } from './abortable';

/** The request a link confirms, as the page shows it: its types and the date it was received, nothing else. */
export type VerifiedRequest = Pick<VerificationAnswer, 'requestTypes' | 'receivedAt'>;

/** Where the token is: the router location's fragment (`#token=…`) or history state (`{ verificationToken }`). */
export interface VerifyInput {
  hash: string;
  state: unknown;
}

export interface VerifyContext {
  /** the link's token (43 characters), or null when the address carries none */
  token: string | null;
  request: VerifiedRequest | null;
  /** why the last call failed, shown until the next attempt; null when none did */
  error: string | null;
}

/** Events of the verification page. */
export type VerifyEvent = { type: 'verify.confirm' } | { type: 'verify.retry' };

/** Said when a call failed without an answer or with one that another attempt may change. */
export const VERIFY_FALLBACK_ERROR = 'We could not reach our server. Check your connection and try again.';

/** Said when a call got no answer within {@link VERIFICATION_TIMEOUT_MS}. */
export const VERIFY_TIMEOUT_ERROR = 'Our server did not answer in time. Please try again.';

/** Said when the server refused more calls from the visitor's network for now (429). */
const VERIFY_RATE_LIMITED_ERROR = 'Too many attempts from your network. Please wait a minute, then try again.';

/**
 * What the page says of a failed call, in the visitor's words: too many attempts (429), a problem on our
 * side (5xx, with its status), another refusal (with its status), or no answer at all.
 */
function errorText(error: unknown): string {
  if (!(error instanceof VerificationError) || error.status === null) return VERIFY_FALLBACK_ERROR;
  if (error.status === 429) return VERIFY_RATE_LIMITED_ERROR;
  if (error.status >= 500) return `Our server could not check your link just now (error ${error.status}). Please try again in a moment.`;
  return `We could not check your link (error ${error.status}). Please try again.`;
}

/**
 * 11 CCR §7060: the page a privacy request's verification link opens
 * (`/privacy-request/verify`). It shows which request the link confirms, and confirms it only when the
 * requester presses "Confirm it's me" (a mail scanner opening the link confirms nothing). Ends
 * confirmed, already confirmed, or with an unknown or expired link; a failed call can be tried again.
 */
export const verifyMachine = setup({
  types: {
    context: {} as VerifyContext,
    events: {} as VerifyEvent,
    input: {} as VerifyInput,
  },
  actors: {
    lookUp: fromPromise<VerificationAnswer, { token: string }>(({ input, signal }) => unlessAborted(lookUpVerification(input.token, signal), signal)),
    confirm: fromPromise<VerificationAnswer, { token: string }>(({ input, signal }) => unlessAborted(confirmVerification(input.token, signal), signal)),
  },
  actions: {
    storeRequest: assign({ request: (_, answer: VerificationAnswer) => ({ requestTypes: answer.requestTypes, receivedAt: answer.receivedAt }) }),
    storeError: assign({ error: (_, params: { error: unknown }) => errorText(params.error) }),
    storeTimeoutError: assign({ error: VERIFY_TIMEOUT_ERROR }),
    clearError: assign({ error: null }),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isVerified: (_, answer: VerificationAnswer) => answer.status === 'verified',
    isUnknownLink: (_, params: { error: unknown }) => params.error instanceof VerificationError && params.error.isUnknownLink,
  },
  delays: { callTimeout: VERIFICATION_TIMEOUT_MS },
}).createMachine({
  id: 'verify',
  description: "A privacy request's verification link: look up, then 'Confirm it's me'.",
  context: ({ input }) => ({
    token: verificationTokenOf(input),
    request: null,
    error: null,
  }),
  initial: 'opening',
  states: {
    opening: {
      description: "The token, from the history entry's state (where the page moved it from the address bar) or the fragment.",
      always: [
        { guard: 'hasToken', target: 'lookingUp', description: 'A well-formed token: looked up.' },
        { target: 'invalid', description: 'No token, or one cut short: the link is unknown.' },
      ],
    },
    lookingUp: {
      description: 'POST the token to the look-up: which request it confirms. Nothing is recorded.',
      invoke: {
        id: 'lookUp',
        src: 'lookUp',
        input: ({ context }) => ({ token: context.token! }),
        onDone: [
          {
            guard: { type: 'isVerified', params: ({ event }) => event.output },
            target: 'alreadyConfirmed',
            actions: { type: 'storeRequest', params: ({ event }) => event.output },
            description: 'The request is already confirmed (by this link, another, or the team).',
          },
          {
            target: 'ready',
            actions: { type: 'storeRequest', params: ({ event }) => event.output },
            description: 'The request is shown with its types and date, and the button to confirm it.',
          },
        ],
        onError: [
          {
            guard: { type: 'isUnknownLink', params: ({ event }) => ({ error: event.error }) },
            target: 'invalid',
            description: '404: unknown, expired, or its request was answered.',
          },
          {
            target: 'lookupFailed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'No answer, or another status: said, and the visitor can try again.',
          },
        ],
      },
      after: {
        callTimeout: { target: 'lookupFailed', actions: 'storeTimeoutError', description: 'No answer within 10 s.' },
      },
    },
    lookupFailed: {
      description: 'The look-up failed: the error and a "Try again" button.',
      on: { 'verify.retry': { target: 'lookingUp', actions: 'clearError', description: 'The visitor tries again.' } },
    },
    ready: {
      description: "The request is shown; 'Confirm it's me' records the verification.",
      on: { 'verify.confirm': { target: 'confirming', actions: 'clearError', description: "The visitor presses 'Confirm it's me'." } },
    },
    confirming: {
      description: 'POST the token to the confirmation; the button is disabled and says so.',
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ token: context.token! }),
        onDone: [
          {
            guard: { type: 'isVerified', params: ({ event }) => event.output },
            target: 'alreadyConfirmed',
            description: 'It was already confirmed meanwhile (another tab, the team).',
          },
          { target: 'confirmed', description: 'Recorded: the request is confirmed.' },
        ],
        onError: [
          {
            guard: { type: 'isUnknownLink', params: ({ event }) => ({ error: event.error }) },
            target: 'invalid',
            description: '404: the link expired or its request was answered meanwhile.',
          },
          {
            target: 'ready',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'No answer, or another status: said, and the button is offered again.',
          },
        ],
      },
      after: {
        callTimeout: { target: 'ready', actions: 'storeTimeoutError', description: 'No answer within 10 s: said, and the button is offered again.' },
      },
    },
    confirmed: { type: 'final', description: 'Thanks: the request is confirmed, and what happens next.' },
    alreadyConfirmed: { type: 'final', description: 'The request was already confirmed: nothing more to do.' },
    invalid: { type: 'final', description: 'The link is unknown or has expired: how to file a new request.' },
  },
});
