import { UNKNOWN_ERROR_MESSAGE } from '@/services/submission';
import { awaitingClientIp, clientIpRegion, formSubmissionSetup, initialFormSubmissionContext } from './formSubmission';

export type {
  FormSubmissionContext as InviteContext,
  FormSubmissionEvent as InviteEvent,
  FormSubmissionEmitted as InviteEmitted,
} from './formSubmission';

/**
 * Spec §4 invite form: idle → submitting → submitted; the view goes to /thank-you from `submitted`
 * whether or not the call succeeded (spec §8: the error is kept and logged, not shown).
 */
export const inviteMachine = formSubmissionSetup.createMachine({
  id: 'invite',
  description: 'Spec §4: the invite request form. The result of the call is ignored: the visitor always reaches /thank-you.',
  type: 'parallel',
  context: initialFormSubmissionContext,
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
            awaitingClientIp,
            sending: {
              description:
                "Spec §7.1: POST {event: 'invite_request', data: payload + metadata}. Spec §4: stores 'accepted' and sends the analytics event.",
              entry: ['assembleSubmission', 'saveBrowserId', 'announceSubmission'],
              invoke: {
                id: 'submitRequest',
                src: 'submitRequest',
                input: ({ context }) => context.body!,
                onDone: { target: '#invite.form.submitted', description: 'The endpoint answered with a success status.' },
                onError: {
                  target: '#invite.form.submitted',
                  actions: [{ type: 'storeError', params: { fallback: UNKNOWN_ERROR_MESSAGE } }, 'logError'],
                  description: 'Spec §4, §8: a failure is logged, not shown; the visitor still goes to /thank-you.',
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
