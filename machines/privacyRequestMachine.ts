import { formSubmissionContext, formSubmissionSetup, keepRequest } from './formSubmission';
import { awaitingClientIpState, clientIpRegion, draftRegion, honeypotTransition, keepingState } from './formStates';

/** Spec §8: what the red box says when the failure carries no message of its own. */
const PRIVACY_REQUEST_FALLBACK_ERROR = 'Failed to submit request. Please try again.';

/**
 * Spec §4 privacy request form: idle → submitting → submitted (the view goes to /thank-you), or back to
 * idle with the error shown (spec §8), keeping what the visitor typed so they can try again.
 */
export const privacyRequestMachine = formSubmissionSetup.createMachine({
  id: 'privacyRequest',
  description: 'Spec §4: the privacy rights request form (CCPA/CPRA), with its failure → idle path.',
  type: 'parallel',
  context: () => formSubmissionContext('privacyRequest'),
  states: {
    clientIp: clientIpRegion,
    draft: draftRegion('privacyRequest'),
    form: {
      description: 'Spec §4: idle, then submitting; then /thank-you on success, or idle again with the error.',
      initial: 'idle',
      states: {
        idle: {
          description: 'The form is filled in; the error of a failed attempt, if any, is shown in a red box.',
          on: {
            'form.submit': [
              honeypotTransition,
              {
                target: 'submitting',
                actions: ['clearError', 'storePayload'],
                description: 'Spec §4: idle, then submitting. A new submission clears the old error.',
              },
            ],
          },
        },
        submitting: {
          description: 'The submit button is disabled and says so; further presses send nothing.',
          initial: 'awaitingClientIp',
          states: {
            awaitingClientIp: awaitingClientIpState,
            sending: {
              description: 'Spec §3, §7.1: sent as an invite request, through the same call as the invite form.',
              entry: ['assembleSubmission', 'saveBrowserId'],
              invoke: {
                id: 'submitRequest',
                src: 'submitRequest',
                input: ({ context }) => ({ body: context.body, key: context.idempotencyKey }),
                onDone: { target: '#privacyRequest.form.submitted', description: 'Spec §4: on success, navigate to /thank-you.' },
                onError: [
                  {
                    guard: { type: 'isRetryable', params: ({ event }) => ({ error: event.error }) },
                    target: 'keeping',
                    actions: [
                      { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: PRIVACY_REQUEST_FALLBACK_ERROR, kept: true }) },
                      { type: 'holdKept', params: ({ context, event }) => keepRequest(context, event.error) },
                    ],
                    description:
                      "Spec §4, §8: the error text ('HTTP error! status: {code}' or the underlying message). No answer, 408, 429 or 5xx: the request is kept for the outbox, then the box says so.",
                  },
                  {
                    target: '#privacyRequest.form.idle',
                    actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: PRIVACY_REQUEST_FALLBACK_ERROR }) },
                    description:
                      "Spec §4, §8: any other failure ('HTTP error! status: {code}', or 'Failed to submit request. Please try again.'): shown, back to idle, not retried.",
                  },
                ],
              },
              after: {
                submitTimeout: {
                  target: 'keeping',
                  actions: ['storeTimeoutError', 'logTimeout', { type: 'holdKept', params: ({ context }) => keepRequest(context, null) }],
                  description: "No answer within 10 s (SUBMIT_TIMEOUT_MS): 'The server did not answer in time…'; the request is kept for the outbox; the visitor can retry.",
                },
              },
            },
            keeping: keepingState('#privacyRequest.form.idle', {
              description:
                "Spec §4, §8: the request is written to the browser's storage before the red box says it is saved, so that closing the tab then loses nothing; the next page load sends it. The wait is for that write only (milliseconds).",
              onDone: { description: 'Stored (or storage failed, logged): the outbox of this page takes it and sends it again; back to idle with the error shown.' },
              after: { description: 'Spec §8: the write has not finished within 1 s: logged, the outbox of this page takes the request, and the error is shown.' },
            }),
          },
        },
        submitted: {
          description: 'Spec §4: navigation to /thank-you.',
          type: 'final',
          entry: [{ type: 'clearDraft', params: { form: 'privacyRequest' } }, 'goToThankYou'],
        },
      },
    },
  },
});
