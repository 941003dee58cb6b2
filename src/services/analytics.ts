import { POSTHOG_KEY } from '@/config/site';
import { nextIdlePeriod } from './idle';
import type { PostHogSession } from './posthogSession';

/**
 * PostHog behind one service (spec §7.3). The SDK is fetched with a dynamic import only when tracking
 * is allowed and `VITE_POSTHOG_KEY` is set, so it is never in the first-load bundle and never fetched
 * for a visitor who opted out or sends GPC.
 *
 * It never costs the visitor the page: nothing of PostHog is requested before the load
 * event. Six steps, each in an idle period of its own (so no two are one long task): importing the
 * SDK (src/services/posthogSdk.ts: the slim entry point with session recording) with the steps' own code
 * (src/services/posthogSession.ts, so that none of it is in a page's first load), creating the page's
 * first Intl object (which the SDK's first event would otherwise create; ICU's start is paid by a
 * worker), initialising the SDK, capturing the first page view (compressed by the browser, off the main
 * thread) beside importing the session recorder (src/services/posthogRecorder.ts), and starting the
 * recording; so recording never starts inside the load window.
 *
 * This module keeps no state of its own: each period of allowed tracking is one {@link AnalyticsSession},
 * owned by the consent machine's invoked `analytics` actor (machines/consentMachine.ts), which starts it
 * on entering `accepted` and stops it on leaving. The SDK itself is one object per page (the module's
 * default instance), so a session installs its own `before_send` gate and every event passes it.
 *
 * Stopping does not call `posthog.opt_out_capturing()`, which writes an opt-out flag to localStorage
 * even in memory mode (DESIGN.md §3): the session's gate drops every event from then on and session
 * recording is stopped, so nothing more is sent and nothing is stored. Every failure is logged and
 * ignored (spec §8): analytics never breaks the page or a form.
 */

/** PostHog's name of a page view (spec §7.3), which the SDK completes with the page's URL, title and referrer. */
export const PAGE_VIEW_EVENT = '$pageview';

/** The page view of a client-side route change (src/app/usePageViews.ts). */
export const PAGE_VIEW: AnalyticsEvent = { event: PAGE_VIEW_EVENT, properties: {} };

/** An analytics event to send (spec §7.3): its name and its properties. */
export interface AnalyticsEvent {
  /** e.g. `invite_request_submitted` (INVITE_SUBMITTED_EVENT) */
  event: string;
  properties: object;
}

/** One period of allowed tracking: from entering the consent machine's `accepted` state to leaving it. */
export interface AnalyticsSession {
  /** Sends the event while the session runs (once the SDK has loaded); afterwards does nothing. Never throws. */
  capture(event: AnalyticsEvent): void;
  /** Ends the session: nothing is loaded, captured or sent from this call on, and session recording stops. Never throws. */
  stop(): void;
}

/**
 * Starts a period of allowed tracking (spec §4 'accepted', §7.3): loads PostHog after the load event
 * when the page is idle, then captures page views and page leaves, and records the session from the
 * next idle period, until {@link AnalyticsSession.stop}. Without a configured key the session does
 * nothing. Never throws.
 */
export function startAnalyticsSession(): AnalyticsSession {
  let running = true;
  const isRunning = () => running;
  const key = POSTHOG_KEY;
  const steps: Promise<PostHogSession | null> = key
    ? nextIdlePeriod(isRunning).then((stillRunning) => (stillRunning
      ? import('./posthogSession').then(
        ({ startPostHogSession }) => (running ? startPostHogSession(key, isRunning) : null),
        (error: unknown) => {
          console.warn('[analytics] PostHog could not be loaded; analytics is off', error);
          return null;
        },
      )
      : null))
    : Promise.resolve(null);

  return {
    capture(event) {
      void steps.then((session) => {
        if (running) session?.capture(event);
      });
    },
    stop() {
      running = false;
      void steps.then((session) => session?.stop());
    },
  };
}
