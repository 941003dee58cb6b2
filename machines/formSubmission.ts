import { assign, emit, fromPromise, setup, stateIn } from 'xstate';
import { IP_LOOKUP_TIMEOUT_MS } from '@/config/site';
import { collectClientMetadata, saveBrowserId } from '@/services/clientMetadata';
import { lookUpClientIp } from '@/services/ipLookup';
import type { InvitePayload, SubmissionBody } from '#shared/submission';
import { buildSubmissionBody, postSubmission, submissionErrorMessage } from '@/services/submission';

/**
 * What the two form machines (invite, privacy request) share: their context, events, and every named
 * implementation, in one `setup`. Each machine file holds only its state chart, the part that is the spec.
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

/**
 * Emitted by the invite machine when the body is sent. The app connects it to the consent machine:
 * spec §4 'Submitting the invite form stores accepted', and §7.3's invite_request_submitted event.
 */
export type FormSubmissionEmitted = { type: 'invite.submitted'; body: SubmissionBody };

/** The context every form machine starts with. */
export const initialFormSubmissionContext: FormSubmissionContext = { payload: null, clientIp: null, body: null, error: null };

export const formSubmissionSetup = setup({
  types: {
    context: {} as FormSubmissionContext,
    events: {} as FormSubmissionEvent,
    emitted: {} as FormSubmissionEmitted,
  },
  actors: {
    /** spec §7.2: resolves to the IP or null, never rejects; stopping the actor aborts the request */
    lookUpClientIp: fromPromise<string | null>(({ signal }) => lookUpClientIp(signal)),
    /** spec §7.1: the POST both forms use; rejects with 'HTTP error! status: {code}' or the fetch error */
    submitRequest: fromPromise<void, SubmissionBody>(({ input, signal }) => postSubmission(input, signal)),
  },
  delays: {
    /** spec §7.2, §9: the IP lookup gives up after 5000 ms */
    ipLookupTimeout: IP_LOOKUP_TIMEOUT_MS,
  },
  guards: {
    isClientIpSettled: stateIn({ clientIp: 'settled' }),
  },
  actions: {
    storePayload: assign({ payload: ({ event }) => (event.type === 'form.submit' ? event.payload : null) }),
    clearError: assign({ error: null }),
    storeClientIp: assign({ clientIp: ({ event }) => (event as unknown as { output: string | null }).output }),
    // spec §8: 'IP lookup failure: logged and ignored; clientIP is null'
    logIpLookupTimeout: () => console.warn(`[ip-lookup] no answer after ${IP_LOOKUP_TIMEOUT_MS} ms; clientIP will be null`),
    assembleSubmission: assign({
      body: ({ context }) => buildSubmissionBody(context.payload!, collectClientMetadata(context.clientIp)),
    }),
    saveBrowserId: ({ context }) => saveBrowserId(context.body!.data.browserId),
    announceSubmission: emit(({ context }) => ({ type: 'invite.submitted' as const, body: context.body! })),
    /** spec §8: the failure's own message, else `fallback` */
    storeError: assign({
      error: ({ event }, params: { fallback: string }) =>
        submissionErrorMessage((event as unknown as { error: unknown }).error, params.fallback),
    }),
    // spec §8: the invite form's failure is logged, never shown
    logError: ({ context }) => console.error('[invite] submission failed:', context.error),
  },
});

/**
 * A parallel region of both form machines: the IP lookup starts when the visitor first engages with the
 * form (`form.engage`, or at the latest `form.submit`), so that by the time they submit it has usually
 * answered or timed out, and a hanging lookup service does not hold the submission for 5 s.
 */
export const clientIpRegion = {
  description: "Spec §7.2: the visitor's public IP, looked up once per form with a 5-second time-out; null on failure.",
  initial: 'notLookedUp',
  states: {
    notLookedUp: {
      description: 'Nothing has been asked yet: no request leaves the page before the visitor uses the form.',
      on: {
        'form.engage': { target: 'lookingUp', description: 'The visitor starts filling in the form.' },
        'form.submit': { target: 'lookingUp', description: 'Submitted without engaging first (e.g. autofill).' },
      },
    },
    lookingUp: {
      description: 'GET the IP-lookup service, asking for JSON.',
      invoke: {
        id: 'lookUpClientIp',
        src: 'lookUpClientIp',
        onDone: { target: 'settled', actions: 'storeClientIp', description: 'The field ip is read; null on failure.' },
      },
      after: {
        ipLookupTimeout: {
          target: 'settled',
          actions: 'logIpLookupTimeout',
          description: 'Spec §7.2: 5-second time-out; clientIP stays null.',
        },
      },
    },
    settled: { description: 'clientIP is known, or null.' },
  },
} as const;

/** The state both forms wait in until the IP lookup has settled, before sending. */
export const awaitingClientIp = {
  description: 'The metadata needs clientIP (or null): wait for the lookup to settle.',
  always: {
    guard: 'isClientIpSettled',
    target: 'sending',
    description: 'The IP lookup has answered or timed out (at once when it already had).',
  },
} as const;
