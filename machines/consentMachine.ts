import { assertEvent, assign, enqueueActions, fromCallback, not, sendTo, setup } from 'xstate';
import { startAnalyticsSession, type AnalyticsEvent } from '@/services/analytics';
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

export type { AnalyticsEvent };

/**
 * Spec §7.3: PostHog for as long as it runs. Invoked by `accepted`: started on entry, stopped on exit,
 * so the machine's state is the only record of whether tracking is on. Receives the events to send.
 */
const analyticsActor = fromCallback<{ type: 'analytics.capture' } & AnalyticsEvent>(({ receive }) => {
  const session = startAnalyticsSession();
  receive((event) => session.capture(event));
  return () => session.stop();
});

/** Events of the consent machine. */
export type ConsentEvent =
  | { type: 'consent.optOut' }
  /** spec §4: an invite submission; `analyticsEvent` is sent once tracking is (again) allowed */
  | { type: 'consent.accept'; analyticsEvent?: AnalyticsEvent }
  | ({ type: 'analytics.capture' } & AnalyticsEvent);

/**
 * Spec §4, §7.3: tracking consent is accepted or rejected, and rejected whenever GPC is on. `accepted`
 * invokes the analytics actor (PostHog runs exactly while in it); `analytics.capture` is handed to that
 * actor, so an event is sent only while accepted. An invite
 * submission is one event, `consent.accept`, whose analytics event is raised as `analytics.capture`.
 */
export const consentMachine = setup({
  types: {
    context: {} as ConsentContext,
    events: {} as ConsentEvent,
    input: {} as ConsentInput,
  },
  actors: { analytics: analyticsActor },
  guards: {
    isGpcOn: ({ context }) => context.gpc,
    isStoredRejected: ({ context }) => context.stored === 'rejected',
    isStoredAccepted: ({ context }) => context.stored === 'accepted',
  },
  actions: {
    // The context keeps the preference for this page's life, even when storage fails (spec §8).
    rememberRejected: assign({ stored: 'rejected' as const }),
    rememberAccepted: assign({ stored: 'accepted' as const }),
    saveRejected: () => storeConsent('rejected'),
    saveAccepted: () => storeConsent('accepted'),
    sendToAnalytics: sendTo('analytics', ({ event }) => {
      assertEvent(event, 'analytics.capture');
      return event;
    }),
    // Raised, not sent at once: from `rejected` it is handled after `accepted` is entered and analytics started.
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
      description: 'Spec §7.3: the analytics actor runs: PostHog captures page views and page leaves and records the session.',
      invoke: { id: 'analytics', src: 'analytics' },
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
          actions: 'sendToAnalytics',
          description: 'Spec §7.3: the event is sent only when tracking is allowed.',
        },
      },
    },
    rejected: {
      description: 'Spec §7.3: no analytics actor runs: nothing is captured, recorded, sent or stored by PostHog.',
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
