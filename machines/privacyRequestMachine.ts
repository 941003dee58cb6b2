import { assign, fromPromise, setup, stateIn } from 'xstate';
import { collectClientMetadata, saveBrowserId } from '../src/services/clientMetadata';
import { buildSubmissionBody, postSubmission, submissionErrorMessage, type InvitePayload, type SubmissionBody } from '../src/services/submission';
import { clientIpRegion, ipLookupTimeout, logIpLookupTimeout, lookUpClientIpLogic } from './clientIpRegion';

/** Spec §8: what the red box says when the failure carries no message of its own. */
export const PRIVACY_REQUEST_FALLBACK_ERROR = 'Failed to submit request. Please try again.';

/** Context of the privacy request machine. */
export interface PrivacyRequestContext {
  /** the privacy request mapped onto an invite payload (src/forms/privacyRequest.ts); null until submitted */
  payload: InvitePayload | null;
  /** spec §7.2; null until looked up, and when the lookup failed */
  clientIp: string | null;
  /** the body of spec §7.1 as last sent; null until sent */
  body: SubmissionBody | null;
  /** spec §8: shown in the red box while set; cleared by a new submission */
  error: string | null;
}

/** Events the privacy request form sends. */
export type PrivacyRequestEvent = { type: 'form.engage' } | { type: 'form.submit'; payload: InvitePayload };

/**
 * Spec §4 privacy request form: idle → submitting → submitted (the view goes to /thank-you), or back to
 * idle with the error shown (spec §8), keeping what the visitor typed so they can try again.
 */
export const privacyRequestMachine = setup({
  types: {
    context: {} as PrivacyRequestContext,
    events: {} as PrivacyRequestEvent,
  },
  actors: {
    lookUpClientIp: lookUpClientIpLogic,
    submitPrivacyRequest: fromPromise<void, SubmissionBody>(({ input, signal }) => postSubmission(input, signal)),
  },
  delays: { ipLookupTimeout },
  guards: {
    isClientIpSettled: stateIn({ clientIp: 'settled' }),
  },
  actions: {
    storePayload: assign({
      payload: ({ event }) => (event.type === 'form.submit' ? event.payload : null),
    }),
    clearError: assign({ error: null }),
    assembleSubmission: assign({
      body: ({ context }) => buildSubmissionBody(context.payload!, collectClientMetadata(context.clientIp)),
    }),
    saveBrowserId: ({ context }) => saveBrowserId(context.body!.data.browserId),
    storeClientIp: assign({ clientIp: ({ event }) => (event as unknown as { output: string | null }).output }),
    logIpLookupTimeout,
    storeError: assign({
      error: ({ event }) => submissionErrorMessage((event as unknown as { error: unknown }).error, PRIVACY_REQUEST_FALLBACK_ERROR),
    }),
  },
}).createMachine({
  id: 'privacyRequest',
  description: 'Spec §4: the privacy rights request form (CCPA/CPRA), with its failure → idle path.',
  type: 'parallel',
  context: { payload: null, clientIp: null, body: null, error: null },
  states: {
    clientIp: clientIpRegion,
    form: {
      description: 'Spec §4: idle, then submitting; then /thank-you on success, or idle again with the error.',
      initial: 'idle',
      states: {
        idle: {
          description: 'The form is filled in; the error of a failed attempt, if any, is shown in a red box.',
          on: {
            'form.submit': {
              target: 'submitting',
              actions: ['clearError', 'storePayload'],
              description: 'Spec §4: idle, then submitting. A new submission clears the old error.',
            },
          },
        },
        submitting: {
          description: 'The submit button is disabled and says so; further presses send nothing.',
          initial: 'awaitingClientIp',
          states: {
            awaitingClientIp: {
              description: 'The metadata needs clientIP (or null): wait for the lookup to settle.',
              always: {
                guard: 'isClientIpSettled',
                target: 'sending',
                description: 'The IP lookup has answered or timed out (at once when it already had).',
              },
            },
            sending: {
              description: 'Spec §3, §7.1: sent as an invite request, through the same call as the invite form.',
              entry: ['assembleSubmission', 'saveBrowserId'],
              invoke: {
                id: 'submitPrivacyRequest',
        src: 'submitPrivacyRequest',
                input: ({ context }) => context.body!,
                onDone: { target: '#privacyRequest.form.submitted', description: 'Spec §4: on success, navigate to /thank-you.' },
                onError: {
                  target: '#privacyRequest.form.idle',
                  actions: 'storeError',
                  description:
                    "Spec §4, §8: on failure show the error text ('HTTP error! status: {code}', the underlying message, or 'Failed to submit request. Please try again.') and return to idle.",
                },
              },
            },
          },
        },
        submitted: {
          description: 'Spec §4: navigation to /thank-you.',
          type: 'final',
        },
      },
    },
  },
});
