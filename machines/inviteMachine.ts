import { assign, emit, fromPromise, setup, stateIn } from 'xstate';
import { collectClientMetadata, saveBrowserId } from '../src/services/clientMetadata';
import {
  buildSubmissionBody,
  postSubmission,
  submissionErrorMessage,
  type InvitePayload,
  type SubmissionBody,
} from '../src/services/submission';
import { clientIpRegion, ipLookupTimeout, logIpLookupTimeout, lookUpClientIpLogic } from './clientIpRegion';

/** Context of the invite machine. */
export interface InviteContext {
  /** what the visitor submitted; null until `form.submit` */
  payload: InvitePayload | null;
  /** spec §7.2; null until looked up, and when the lookup failed */
  clientIp: string | null;
  /** the body of spec §7.1 as sent; null until sent */
  body: SubmissionBody | null;
  /** spec §8: kept and logged, never shown ('an error state exists but is not shown') */
  error: string | null;
}

/** Events the invite form sends. */
export type InviteEvent = { type: 'form.engage' } | { type: 'form.submit'; payload: InvitePayload };

/**
 * Emitted when the body is sent. The app connects it to the consent machine: spec §4 'Submitting the
 * invite form stores accepted and turns analytics back on', and §7.3's invite_request_submitted event.
 */
export type InviteEmitted = { type: 'invite.submitted'; body: SubmissionBody };

/**
 * Spec §4 invite form: idle → submitting → submitted; the view goes to /thank-you from `submitted`
 * whether or not the call succeeded (spec §8: the error is not shown).
 */
export const inviteMachine = setup({
  types: {
    context: {} as InviteContext,
    events: {} as InviteEvent,
    emitted: {} as InviteEmitted,
  },
  actors: {
    lookUpClientIp: lookUpClientIpLogic,
    submitInviteRequest: fromPromise<void, SubmissionBody>(({ input, signal }) => postSubmission(input, signal)),
  },
  delays: { ipLookupTimeout },
  guards: {
    isClientIpSettled: stateIn({ clientIp: 'settled' }),
  },
  actions: {
    storePayload: assign({
      payload: ({ event }) => (event.type === 'form.submit' ? event.payload : null),
    }),
    storeClientIp: assign({ clientIp: ({ event }) => (event as unknown as { output: string | null }).output }),
    logIpLookupTimeout,
    assembleSubmission: assign({
      body: ({ context }) => buildSubmissionBody(context.payload!, collectClientMetadata(context.clientIp)),
    }),
    saveBrowserId: ({ context }) => saveBrowserId(context.body!.data.browserId),
    announceSubmission: emit(({ context }) => ({ type: 'invite.submitted' as const, body: context.body! })),
    storeError: assign({
      error: ({ event }) => submissionErrorMessage((event as unknown as { error: unknown }).error),
    }),
    logError: ({ context }) => console.error('[invite] submission failed:', context.error),
  },
}).createMachine({
  id: 'invite',
  description: 'Spec §4: the invite request form. The result of the call is ignored: the visitor always reaches /thank-you.',
  type: 'parallel',
  context: { payload: null, clientIp: null, body: null, error: null },
  states: {
    clientIp: clientIpRegion,
    form: {
      description: 'Spec §4: idle, then submitting, then navigation to /thank-you.',
      initial: 'idle',
      states: {
        idle: {
          description: 'The form is filled in; the browser enforces spec §5 before form.submit is sent.',
          on: {
            'form.submit': {
              target: 'submitting',
              actions: 'storePayload',
              description: 'Spec §4: idle, then submitting.',
            },
          },
        },
        submitting: {
          description: "Spec §4: the button reads 'Submitting...' and is disabled; further presses send nothing.",
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
              description:
                "Spec §7.1: POST {event: 'invite_request', data: payload + metadata}. Spec §4: stores 'accepted' and sends the analytics event.",
              entry: ['assembleSubmission', 'saveBrowserId', 'announceSubmission'],
              invoke: {
                id: 'submitInviteRequest',
        src: 'submitInviteRequest',
                input: ({ context }) => context.body!,
                onDone: { target: '#invite.form.submitted', description: 'The endpoint answered with a success status.' },
                onError: {
                  target: '#invite.form.submitted',
                  actions: ['storeError', 'logError'],
                  description: "Spec §4, §8: a failure is logged, not shown; the visitor still goes to /thank-you.",
                },
              },
            },
          },
        },
        submitted: {
          description: 'Spec §4: navigation to /thank-you, whether or not the submission succeeded.',
          type: 'final',
        },
      },
    },
  },
});
