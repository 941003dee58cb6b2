import { formSubmissionSetup } from './formSubmission';

/**
 * The states the two form machines (machines/inviteMachine.ts, machines/privacyRequestMachine.ts) have in
 * common: the two regions beside each `form` region, the client IP lookup (spec §7.2) and the draft kept for
 * this tab, and the parts of `form` that do not depend on what follows a submission. Each machine places
 * them in its own chart, where what differs (targets, descriptions) is written.
 */

/**
 * Spec §7.2: the `clientIp` region. notLookedUp → lookingUp on the first `form.engage` or `form.submit`,
 * then settled when the lookup answers (clientIp stored, null on failure) or after `ipLookupTimeout`
 * (5000 ms; clientIp stays null). The form's `isClientIpSettled` guard waits for `settled`.
 */
export const clientIpRegion = formSubmissionSetup.createStateConfig({
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
        onDone: {
          target: 'settled',
          actions: { type: 'storeClientIp', params: ({ event }) => ({ clientIp: event.output }) },
          description: 'The field ip is read; null on failure.',
        },
      },
      after: {
        ipLookupTimeout: { target: 'settled', actions: 'logIpLookupTimeout', description: 'Spec §7.2: 5-second time-out; clientIP stays null.' },
      },
    },
    settled: { description: 'clientIP is known, or null.' },
  },
});

/**
 * The `draft` region of the form machine whose drafts are stored under `form` (src/services/drafts.ts,
 * sessionStorage): kept → changed on each `form.change` while the form is open; back to kept, with the
 * draft saved, 500 ms (`draftSaveDelay`) after the last change or at once on `form.blur`.
 */
export function draftRegion(form: string) {
  return formSubmissionSetup.createStateConfig({
    description: 'What the visitor types is kept for this tab (sessionStorage), so that leaving the page and coming back loses nothing.',
    initial: 'kept',
    states: {
      kept: {
        description: 'The kept draft is up to date, or there is none.',
        on: {
          'form.change': { guard: 'isFormOpen', target: 'changed', actions: 'storeDraft', description: 'The visitor changed a field.' },
        },
      },
      changed: {
        description: 'Changed since last kept: kept once the visitor pauses, or as soon as focus leaves the form.',
        after: {
          draftSaveDelay: {
            guard: 'isFormOpen',
            target: 'kept',
            actions: { type: 'saveDraft', params: { form } },
            description: 'No change for 500 ms: the draft is kept.',
          },
        },
        on: {
          'form.change': {
            guard: 'isFormOpen',
            target: 'changed',
            reenter: true,
            actions: 'storeDraft',
            description: 'Another change: the wait starts again.',
          },
          'form.blur': {
            guard: 'isFormOpen',
            target: 'kept',
            actions: { type: 'saveDraft', params: { form } },
            description: 'Focus left the form (a link, another window): the draft is kept at once.',
          },
        },
      },
    },
  });
}

/**
 * Spec §4, §8: the `form.submit` transition taken first from each form's `idle`: the honeypot field was
 * filled (`isTrapFilled`), so nothing is sent; logged, then `submitted`, as for anyone.
 */
export const honeypotTransition = {
  guard: 'isTrapFilled',
  target: 'submitted',
  actions: 'logTrap',
  description: 'The honeypot field was filled (a bot): nothing is sent, and it is shown /thank-you as anyone would be.',
} as const;

/** The first state of each form's `submitting`: waits (eventless) until the `clientIp` region is settled, then `sending`. */
export const awaitingClientIpState = formSubmissionSetup.createStateConfig({
  description: 'The metadata needs clientIP (or null): wait for the lookup to settle.',
  always: {
    guard: 'isClientIpSettled',
    target: 'sending',
    description: 'The IP lookup has answered or timed out (at once when it already had).',
  },
});

/**
 * Spec §4, §8: the `keeping` state of each form's `submitting`. Writes `context.kept` to the browser's
 * storage (`keepRequest`, never rejects), then hands it to the page's outbox (`keepForRetry`) and goes to
 * `then` (a state id, e.g. `#invite.form.submitted`); after `keepRequestTimeout` (1000 ms) it logs and does
 * the same without waiting longer. `text` holds what each form's chart says of the state and of its two
 * transitions, which differ with what follows: plain `description: '…'` properties, so that the
 * production build leaves them out as it does every description (vite.config.ts).
 */
export function keepingState(then: string, text: { description: string; onDone: { description: string }; after: { description: string } }) {
  return formSubmissionSetup.createStateConfig({
    description: text.description,
    invoke: {
      id: 'keepRequest',
      src: 'keepRequest',
      input: ({ context }) => context.kept,
      onDone: {
        target: then,
        actions: { type: 'keepForRetry', params: ({ context }) => context.kept },
        ...text.onDone,
      },
    },
    after: {
      keepRequestTimeout: {
        target: then,
        actions: ['logKeepTimeout', { type: 'keepForRetry', params: ({ context }) => context.kept }],
        ...text.after,
      },
    },
  });
}
