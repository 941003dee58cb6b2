import { assertEvent, assign, fromPromise, setup, stateIn } from 'xstate';
import { IP_LOOKUP_TIMEOUT_MS } from '@/config/site';
import { collectClientMetadata, saveBrowserId } from '@/services/clientMetadata';
import { lookUpClientIp } from '@/services/ipLookup';
import type { InvitePayload, SubmissionBody } from '#shared/submission';
import { buildSubmissionBody, postSubmission, submissionErrorMessage } from '@/services/submission';

/**
 * What the two form machines (invite, privacy request) share: their context, events and named
 * implementations, in one `setup`. Implementations only: each machine file holds its whole chart
 * (machines/inviteMachine.ts, machines/privacyRequestMachine.ts), so that it reads, and imports into the
 * Stately editor, on its own.
 */

/** Context of a form machine. */
export interface FormSubmissionContext {
  /** the invite payload to send (the privacy form maps its answers onto one); null until `form.submit` */
  payload: InvitePayload | null;
  /** spec §7.2; null until looked up, and when the lookup failed or timed out */
  clientIp: string | null;
  /** the body of spec §7.1 as last sent; null until sent */
  body: SubmissionBody | null;
  /** spec §8: the last failure's message; null when none */
  error: string | null;
}

/** Events a form sends to its machine. */
export type FormSubmissionEvent = { type: 'form.engage' } | { type: 'form.submit'; payload: InvitePayload };

/** The context every form machine starts with. */
export const initialFormSubmissionContext: FormSubmissionContext = { payload: null, clientIp: null, body: null, error: null };

export const formSubmissionSetup = setup({
  types: {
    context: {} as FormSubmissionContext,
    events: {} as FormSubmissionEvent,
  },
  actors: {
    /** spec §7.2: resolves to the IP or null, never rejects; stopping the actor aborts the request */
    lookUpClientIp: fromPromise<string | null>(({ signal }) => lookUpClientIp(signal)),
    /** spec §7.1: the POST both forms use; rejects with 'HTTP error! status: {code}' or the fetch error */
    submitRequest: fromPromise<void, SubmissionBody | null>(({ input, signal }) =>
      input ? postSubmission(input, signal) : Promise.reject(new Error('No submission was assembled')),
    ),
  },
  delays: {
    /** spec §7.2, §9: the IP lookup gives up after 5000 ms */
    ipLookupTimeout: IP_LOOKUP_TIMEOUT_MS,
  },
  guards: {
    isClientIpSettled: stateIn({ clientIp: 'settled' }),
  },
  actions: {
    storePayload: assign({
      payload: ({ event }) => {
        assertEvent(event, 'form.submit');
        return event.payload;
      },
    }),
    clearError: assign({ error: null }),
    storeClientIp: assign({ clientIp: (_, params: { clientIp: string | null }) => params.clientIp }),
    // spec §8: 'IP lookup failure: logged and ignored; clientIP is null'
    logIpLookupTimeout: () => console.warn(`[ip-lookup] no answer after ${IP_LOOKUP_TIMEOUT_MS} ms; clientIP will be null`),
    assembleSubmission: assign({
      body: ({ context }) => (context.payload ? buildSubmissionBody(context.payload, collectClientMetadata(context.clientIp)) : null),
    }),
    saveBrowserId: ({ context }) => {
      if (context.body) saveBrowserId(context.body.data.browserId);
    },
    /** spec §8: the failure's own message, else `fallback` */
    storeError: assign({
      error: (_, params: { error: unknown; fallback: string }) => submissionErrorMessage(params.error, params.fallback),
    }),
    // spec §8: the invite form's failure is logged, never shown
    logError: ({ context }) => console.error('[invite] submission failed:', context.error),
    /**
     * Provided by the view (`machine.provide`): spec §4 'Submitting the invite form stores accepted' and
     * §7.3's invite_request_submitted event, handed to the app-wide consent machine with the body as sent.
     */
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the signature types the view's params
    handOverToConsent: (_, _params: { body: SubmissionBody | null }) => {},
    /** Provided by the view (`machine.provide`): navigation to /thank-you (spec §4). */
    goToThankYou: () => {},
  },
});
