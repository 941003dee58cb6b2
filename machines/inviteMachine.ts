import { UNKNOWN_ERROR_MESSAGE } from '@/services/submission';
import { formSubmissionContext, formSubmissionSetup, keepRequest } from './formSubmission';
import { awaitingClientIpState, clientIpRegion, draftRegion, honeypotTransition, keepingState } from './formStates';

/**
 * Spec §4 invite form: idle → submitting → submitted, then /thank-you whether or not the call succeeded
 * (spec §8: the error is kept and logged, not shown). The `form` region is here, the `clientIp` and `draft`
 * regions in machines/formStates.ts; the implementations are named in machines/formSubmission.ts, and the
 * view provides `goToThankYou` and `handOverToConsent`.
 */
export const inviteMachine = formSubmissionSetup.createMachine({
  id: 'invite',
  description: 'Spec §4: the invite request form. The result of the call is ignored: the visitor always reaches /thank-you.',
  type: 'parallel',
  context: () => formSubmissionContext('invite'),
  states: {
    clientIp: clientIpRegion,
    draft: draftRegion('invite'),
    form: {
      description: 'Spec §4: idle, then submitting, then navigation to /thank-you.',
      initial: 'idle',
      states: {
        idle: {
          description: 'The form is filled in; the browser enforces spec §5 before form.submit is sent.',
          on: {
            'form.submit': [
              honeypotTransition,
              { target: 'submitting', actions: 'storePayload', description: 'Spec §4: idle, then submitting.' },
            ],
          },
        },
        submitting: {
          description: "Spec §4: the button reads 'Submitting...' and is disabled; further presses send nothing.",
          initial: 'awaitingClientIp',
          states: {
            awaitingClientIp: awaitingClientIpState,
            sending: {
              description:
                "Spec §7.1: POST {event: 'invite_request', data: payload + metadata}. Spec §4: stores 'accepted' and sends the analytics event.",
              entry: ['assembleSubmission', 'saveBrowserId', { type: 'handOverToConsent', params: ({ context }) => ({ body: context.body }) }],
              invoke: {
                id: 'submitRequest',
                src: 'submitRequest',
                input: ({ context }) => ({ body: context.body, key: context.idempotencyKey }),
                onDone: { target: '#invite.form.submitted', description: 'The endpoint answered with a success status.' },
                onError: [
                  {
                    guard: { type: 'isRetryable', params: ({ event }) => ({ error: event.error }) },
                    target: 'keeping',
                    actions: [
                      { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: UNKNOWN_ERROR_MESSAGE }) },
                      'logError',
                      { type: 'holdKept', params: ({ context, event }) => keepRequest(context, event.error) },
                    ],
                    description:
                      'Spec §4, §8: a failure is logged, not shown. No answer, 408, 429 or 5xx: the request is kept for the outbox before the visitor goes to /thank-you.',
                  },
                  {
                    target: '#invite.form.submitted',
                    actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: UNKNOWN_ERROR_MESSAGE }) }, 'logError'],
                    description: 'Spec §4, §8: any other 4xx is logged, not shown, and not retried; the visitor still goes to /thank-you.',
                  },
                ],
              },
              after: {
                submitTimeout: {
                  target: 'keeping',
                  actions: ['logTimeout', { type: 'holdKept', params: ({ context }) => keepRequest(context, null) }],
                  description: 'No answer within 10 s (SUBMIT_TIMEOUT_MS): the request is kept for the outbox before the visitor goes to /thank-you.',
                },
              },
            },
            keeping: keepingState('#invite.form.submitted', {
              description:
                "Spec §4, §8: the request is written to the browser's storage before the visitor is sent to /thank-you, so that closing the tab as it shows loses nothing; the next page load sends it. The wait is for that write only (milliseconds).",
              onDone: { description: 'Stored (or storage failed, logged): the outbox of this page takes it and sends it again; the visitor goes to /thank-you.' },
              after: {
                description:
                  "Spec §4: navigate whatever the result. The write has not finished within 1 s: logged, the outbox of this page takes the request, and the visitor goes to /thank-you.",
              },
            }),
          },
        },
        submitted: {
          description: 'Spec §4: navigation to /thank-you, whether or not the submission succeeded.',
          type: 'final',
          entry: [{ type: 'clearDraft', params: { form: 'invite' } }, 'goToThankYou'],
        },
      },
    },
  },
});
