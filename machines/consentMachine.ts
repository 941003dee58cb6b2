import { assign, enqueueActions, not, setup } from 'xstate';
import { captureEvent, disableAnalytics, enableAnalytics } from '@/services/analytics';
import { storeConsent, type ConsentPreference } from '@/services/consentStore';

/**
 * Spec §4 with nothing stored and no GPC: tracking is allowed. The spec is an opt-out model (the footer
 * button opts out); change this one constant to make the site opt-in.
 */
export const DEFAULT_CONSENT: ConsentPreference = 'accepted';

/** What the browser tells at start: the stored preference and the Global Privacy Control signal. */
export interface ConsentInput {
  /** localStorage value (spec §3), null when none or unreadable */
  stored: ConsentPreference | null;
  /** `navigator.globalPrivacyControl === true` */
  gpc: boolean;
}

/** Context: the inputs, kept for guards and for the footer's honoured-signal notice. */
export type ConsentContext = ConsentInput;

/** An analytics event to send (spec §7.3): its name and its properties. */
export interface AnalyticsEvent {
  event: string;
  properties: object;
}

/** Events of the consent machine. */
export type ConsentEvent =
  | { type: 'consent.optOut' }
  /** spec §4: an invite submission; `analyticsEvent` is sent once tracking is (again) allowed */
  | { type: 'consent.accept'; analyticsEvent?: AnalyticsEvent }
  | ({ type: 'analytics.capture' } & AnalyticsEvent);

/**
 * Spec §4, §7.3: tracking consent is accepted or rejected, and rejected whenever GPC is on. Entering a
 * state turns analytics on or off; `analytics.capture` sends an event only while accepted. An invite
 * submission is one event, `consent.accept`, whose analytics event is raised as `analytics.capture`.
 */
export const consentMachine = setup({
  types: {
    context: {} as ConsentContext,
    events: {} as ConsentEvent,
    input: {} as ConsentInput,
  },
  guards: {
    isGpcOn: ({ context }) => context.gpc,
    isStoredRejected: ({ context }) => context.stored === 'rejected',
    isStoredAccepted: ({ context }) => context.stored === 'accepted',
  },
  actions: {
    enableAnalytics: () => {
      void enableAnalytics();
    },
    disableAnalytics: () => disableAnalytics(),
    // The context keeps the preference for this page's life, even when storage fails (spec §8).
    rememberRejected: assign({ stored: 'rejected' as const }),
    rememberAccepted: assign({ stored: 'accepted' as const }),
    saveRejected: () => storeConsent('rejected'),
    saveAccepted: () => storeConsent('accepted'),
    captureEvent: ({ event }) => {
      if (event.type === 'analytics.capture') captureEvent(event.event, event.properties);
    },
    // Raised, not sent at once: from `rejected` it is handled after `accepted` is entered and analytics enabled.
    raiseAnalyticsEvent: enqueueActions(({ event, enqueue }) => {
      if (event.type === 'consent.accept' && event.analyticsEvent) {
        enqueue.raise({ type: 'analytics.capture', ...event.analyticsEvent });
      }
    }),
  },
}).createMachine({
  id: 'consent',
  description: "Spec §4: tracking consent, stored as 'accepted' or 'rejected'; treated as rejected while the browser's GPC signal is on.",
  context: ({ input }) => ({ stored: input.stored, gpc: input.gpc }),
  initial: 'deciding',
  states: {
    deciding: {
      description: 'Decides the starting state from the GPC signal and the stored preference.',
      always: [
        { guard: 'isGpcOn', target: 'rejected', description: 'Spec §4: treated as rejected if the GPC signal is on, whatever is stored.' },
        { guard: 'isStoredRejected', target: 'rejected', description: "'rejected' is stored." },
        { guard: 'isStoredAccepted', target: 'accepted', description: "'accepted' is stored." },
        { target: DEFAULT_CONSENT, description: 'Nothing stored and no GPC: DEFAULT_CONSENT (opt-out model).' },
      ],
    },
    accepted: {
      description: 'Spec §7.3: analytics loads and captures page views, page leaves and session recording.',
      entry: 'enableAnalytics',
      on: {
        'consent.optOut': {
          target: 'rejected',
          actions: ['rememberRejected', 'saveRejected'],
          description: "Spec §4: 'Do Not Sell or Share My Personal Information' stores 'rejected' and turns off capture and recording.",
        },
        'consent.accept': {
          actions: ['rememberAccepted', 'saveAccepted', 'raiseAnalyticsEvent'],
          description: "Spec §4: submitting the invite form stores 'accepted'; its analytics event follows.",
        },
        'analytics.capture': {
          actions: 'captureEvent',
          description: 'Spec §7.3: the event is sent only when tracking is allowed.',
        },
      },
    },
    rejected: {
      description: 'Spec §7.3: analytics is disabled: nothing is captured, recorded, sent or stored by PostHog.',
      entry: 'disableAnalytics',
      on: {
        'consent.optOut': {
          actions: ['rememberRejected', 'saveRejected'],
          description: "Opting out again stores 'rejected' again (the toast shows again).",
        },
        'consent.accept': {
          guard: not('isGpcOn'),
          target: 'accepted',
          actions: ['rememberAccepted', 'saveAccepted', 'raiseAnalyticsEvent'],
          description: "Spec §4: submitting the invite form stores 'accepted' and turns analytics back on, unless GPC is on.",
        },
      },
    },
  },
});
