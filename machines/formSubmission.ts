import { assertEvent, assign, fromPromise, not, setup, stateIn } from 'xstate';
import { DRAFT_SAVE_DELAY_MS, IP_LOOKUP_TIMEOUT_MS, KEEP_REQUEST_TIMEOUT_MS, SUBMIT_TIMEOUT_MS } from '@/config/site';
import { clearDraft, loadDraft, saveDraft, type DraftValues } from '@/services/drafts';
import { collectClientMetadata, saveBrowserId } from '@/services/clientMetadata';
import { lookUpClientIp } from '@/services/ipLookup';
import type { InvitePayload, SubmissionBody } from '#shared/submission';
import {
  buildSubmissionBody,
  carriesPayload,
  newIdempotencyKey,
  postSubmission,
  SubmissionError,
  submissionErrorMessage,
} from '@/services/submission';
import { storeKeptRequest, type KeepRequest } from '@/services/outboxStore';

/**
 * What the two form machines (invite, privacy request) share: their context, events and named
 * implementations, in one `setup`. Each machine file holds its own `form` region
 * (machines/inviteMachine.ts, machines/privacyRequestMachine.ts), where the two differ; the regions beside
 * it, the same in both, are in machines/formStates.ts.
 */

/** Context of a form machine. */
export interface FormSubmissionContext {
  /** the invite payload to send (the privacy form maps its answers onto one); null until `form.submit` */
  payload: InvitePayload | null;
  /** spec §7.2; null until looked up, and when the lookup failed or timed out */
  clientIp: string | null;
  /** the body of spec §7.1 as last sent; null until sent */
  body: SubmissionBody | null;
  /** the body's idempotency key (`Idempotency-Key`); a new one for every new body */
  idempotencyKey: string | null;
  /** What the visitor typed, as last changed (restored into the form when it opens); null when none */
  draft: DraftValues | null;
  /** spec §8: the last failure's message; null when none */
  error: string | null;
  /** spec §4, §8: the request being handed to the outbox after a failed attempt; null when none */
  kept: KeepRequest | null;
}

/** Events a form sends to its machine. */
export type FormSubmissionEvent =
  | { type: 'form.engage' }
  /** `trapFilled`: the honeypot field was filled: a bot, to be shown /thank-you and sent nothing */
  | { type: 'form.submit'; payload: InvitePayload; trapFilled?: boolean }
  /** The visitor changed a field; `values` is the whole form */
  | { type: 'form.change'; values: DraftValues }
  /** Focus left the form (a link followed, another window) */
  | { type: 'form.blur' };

/** The context every form machine starts with, before its draft is read. */
const initialFormSubmissionContext: FormSubmissionContext = {
  payload: null,
  clientIp: null,
  body: null,
  idempotencyKey: null,
  error: null,
  draft: null,
  kept: null,
};

/** The context a form machine starts with: nothing sent yet, and the draft this tab kept for `form`. */
export function formSubmissionContext(form: string): FormSubmissionContext {
  return { ...initialFormSubmissionContext, draft: loadDraft(form) };
}

/**
 * What `keepForRetry` hands to the outbox: the body as sent, its key, and the `Retry-After` of the failed
 * attempt; null when nothing was assembled.
 */
export function keepRequest(context: FormSubmissionContext, error: unknown): KeepRequest | null {
  if (!context.body || !context.idempotencyKey) return null;
  return { key: context.idempotencyKey, body: context.body, retryAfterMs: error instanceof SubmissionError ? error.retryAfterMs : null };
}

/**
 * What the privacy form's red box adds when its request was kept for retry. Also shown, alone
 * after the first sentence, when the call timed out.
 */
const SAVED_FOR_RETRY_MESSAGE = 'Your request is saved and will be sent again; you can also try now.';

/** The privacy form's message when the server did not answer within SUBMIT_TIMEOUT_MS. */
const TIMEOUT_MESSAGE = `The server did not answer in time. ${SAVED_FOR_RETRY_MESSAGE}`;

export const formSubmissionSetup = setup({
  types: {
    context: {} as FormSubmissionContext,
    events: {} as FormSubmissionEvent,
  },
  actors: {
    /** spec §7.2: resolves to the IP or null, never rejects; stopping the actor aborts the request */
    lookUpClientIp: fromPromise<string | null>(({ signal }) => lookUpClientIp(signal)),
    /** spec §7.1: the POST both forms use; rejects with a SubmissionError ('HTTP error! status: {code}' or the fetch error) */
    submitRequest: fromPromise<void, { body: SubmissionBody | null; key: string | null }>(({ input, signal }) =>
      input.body && input.key ? postSubmission(input.body, input.key, signal) : Promise.reject(new Error('No submission was assembled')),
    ),
    /**
     * spec §4, §8: writes the request handed to the outbox into the browser's storage
     * (src/services/outboxStore.ts); resolves once written, or once storage failed (logged); never rejects
     */
    keepRequest: fromPromise<void, KeepRequest | null>(({ input }) => storeKeptRequest(input)),
  },
  delays: {
    /** spec §7.2, §9: the IP lookup gives up after 5000 ms */
    ipLookupTimeout: IP_LOOKUP_TIMEOUT_MS,
    /** The submission call is given up after 10 000 ms */
    submitTimeout: SUBMIT_TIMEOUT_MS,
    /** A draft is kept 500 ms after the last change */
    draftSaveDelay: DRAFT_SAVE_DELAY_MS,
    /** spec §4, §8: the wait for the kept request's storage write gives up after 1000 ms */
    keepRequestTimeout: KEEP_REQUEST_TIMEOUT_MS,
  },
  guards: {
    isClientIpSettled: stateIn({ clientIp: 'settled' }),
    /** The form is still there to type into (not yet sent) */
    isFormOpen: not(stateIn({ form: 'submitted' })),
    /** The honeypot field was filled */
    isTrapFilled: ({ event }) => event.type === 'form.submit' && event.trapFilled === true,
    /** No answer, 408, 429 or a 5xx: a later attempt may succeed */
    isRetryable: (_, params: { error: unknown }) => params.error instanceof SubmissionError && params.error.retryable,
  },
  actions: {
    storePayload: assign({
      payload: ({ event }) => {
        assertEvent(event, 'form.submit');
        return event.payload;
      },
    }),
    clearError: assign({ error: null }),
    /** what the outbox is to keep (keepRequest): the body as sent, its key, the failed attempt's Retry-After */
    holdKept: assign({ kept: (_, params: KeepRequest | null) => params }),
    storeClientIp: assign({ clientIp: (_, params: { clientIp: string | null }) => params.clientIp }),
    // spec §8: 'IP lookup failure: logged and ignored; clientIP is null'
    logIpLookupTimeout: () => console.warn(`[ip-lookup] no answer after ${IP_LOOKUP_TIMEOUT_MS} ms; clientIP will be null`),
    /** a new body and key, unless the last body carries the same answers: then both are reused */
    assembleSubmission: assign(({ context }) => {
      if (!context.payload) return { body: null, idempotencyKey: null };
      if (context.body && context.idempotencyKey && carriesPayload(context.body, context.payload)) return {};
      return { body: buildSubmissionBody(context.payload, collectClientMetadata(context.clientIp)), idempotencyKey: newIdempotencyKey() };
    }),
    saveBrowserId: ({ context }) => {
      if (context.body) saveBrowserId(context.body.data.browserId);
    },
    /** spec §8: the failure's own message, else `fallback`; plus SAVED_FOR_RETRY_MESSAGE when kept for retry */
    storeError: assign({
      error: (_, params: { error: unknown; fallback: string; kept?: boolean }) => {
        const message = submissionErrorMessage(params.error, params.fallback);
        return params.kept ? `${message.replace(/\.?$/, '.')} ${SAVED_FOR_RETRY_MESSAGE}` : message;
      },
    }),
    storeTimeoutError: assign({ error: TIMEOUT_MESSAGE }),
    storeDraft: assign({
      draft: ({ event }) => {
        assertEvent(event, 'form.change');
        return event.values;
      },
    }),
    saveDraft: ({ context }, params: { form: string }) => {
      if (context.draft) saveDraft(params.form, context.draft);
    },
    clearDraft: (_, params: { form: string }) => clearDraft(params.form),
    logTrap: () => console.warn('[submission] the honeypot field was filled; nothing is sent'),
    logKeepTimeout: () =>
      console.warn(`[outbox] the request could not be written to storage within ${KEEP_REQUEST_TIMEOUT_MS} ms; moving on, it is kept while this page is open`),
    logTimeout: () => console.warn(`[submission] no answer after ${SUBMIT_TIMEOUT_MS} ms; the request is kept and will be sent again`),
    // spec §8: the invite form's failure is logged, never shown
    logError: ({ context }) => console.error('[invite] submission failed:', context.error),
    /**
     * Provided by the view (`machine.provide`): spec §4 'Submitting the invite form stores accepted' and
     * §7.3's invite_request_submitted event, handed to the app-wide consent machine with the body as sent.
     */
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the signature types the view's params
    handOverToConsent: (_, _params: { body: SubmissionBody | null }) => {},
    /**
     * Provided by the view (`machine.provide`): hands a submission whose attempt failed (network
     * error, time-out, 408, 429, 5xx) to the app-wide outbox (machines/outboxMachine.ts).
     */
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the signature types the view's params
    keepForRetry: (_, _params: KeepRequest | null) => {},
    /** Provided by the view (`machine.provide`): navigation to /thank-you (spec §4). */
    goToThankYou: () => {},
  },
});
