import type { PostHog } from 'posthog-js/dist/module.full.no-external';
import { POSTHOG_HOST, POSTHOG_KEY } from '@/config/site';

/**
 * PostHog behind one service (spec §7.3). The SDK is fetched with a dynamic import only when tracking
 * is allowed and `VITE_POSTHOG_KEY` is set, so it is never in the first-load bundle and never fetched
 * for a visitor who opted out or sends GPC.
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

/** An analytics event to send (spec §7.3): its name and its properties. */
export interface AnalyticsEvent {
  /** e.g. `invite_request_submitted` (INVITE_SUBMITTED_EVENT) */
  event: string;
  properties: object;
}

/** One period of allowed tracking: from entering the consent machine's `accepted` state to leaving it. */
export interface AnalyticsSession {
  /** Sends the event while the session runs; afterwards does nothing. Never throws. */
  capture(event: AnalyticsEvent): void;
  /** Ends the session: nothing is captured or sent from this call on, and session recording stops. Never throws. */
  stop(): void;
}

/** True when analytics can run at all: a PostHog key was configured at build time. */
export function isAnalyticsConfigured(): boolean {
  return Boolean(POSTHOG_KEY);
}

/**
 * Imports the SDK (cached by the module loader after the first call) and initialises it once, or points
 * an already initialised SDK at the new session's gate. Resolves to null, logged, when the import fails.
 */
async function loadPostHog(key: string, gate: (event: { event: string } | null) => unknown): Promise<PostHog | null> {
  try {
    const { default: posthog } = await import('posthog-js/dist/module.full.no-external');
    const beforeSend = gate as NonNullable<Parameters<PostHog['set_config']>[0]['before_send']>;
    if (posthog.__loaded) {
      posthog.set_config({ before_send: beforeSend });
      return posthog;
    }
    posthog.init(key, {
      api_host: POSTHOG_HOST,
      persistence: 'memory', // spec §7.3: memory-only: no cookie, no localStorage
      person_profiles: 'identified_only',
      capture_pageview: 'history_change', // page views, including client-side route changes
      capture_pageleave: true,
      session_recording: { recordCrossOriginIframes: false },
      // Not in spec §7.3's list, so off: click autocapture, surveys, exceptions, heatmaps, dead clicks.
      autocapture: false,
      disable_surveys: true,
      capture_exceptions: false,
      capture_heatmaps: false,
      capture_dead_clicks: false,
      // No script from PostHog's CDN at run time: this build bundles the recorder.
      disable_external_dependency_loading: true,
      // With batching, an event captured just before an opt-out would still leave afterwards.
      request_batching: false,
      before_send: beforeSend,
    });
    return posthog;
  } catch (error) {
    console.warn('[analytics] PostHog could not be loaded; analytics is off', error);
    return null;
  }
}

/**
 * Starts a period of allowed tracking (spec §4 'accepted', §7.3): loads PostHog on first use, then
 * captures page views and page leaves and records the session until {@link AnalyticsSession.stop}.
 * Without a configured key the session does nothing. Never throws.
 */
export function startAnalyticsSession(): AnalyticsSession {
  let running = true;
  const key = POSTHOG_KEY;
  const ready: Promise<PostHog | null> = key
    ? loadPostHog(key, (event) => (running ? event : null)).then((posthog) => {
        try {
          if (posthog && running && !posthog.sessionRecordingStarted()) posthog.startSessionRecording();
        } catch (error) {
          console.warn('[analytics] could not start session recording', error);
        }
        return posthog;
      })
    : Promise.resolve(null);

  return {
    capture({ event, properties }) {
      void ready.then((posthog) => {
        try {
          if (running) posthog?.capture(event, { ...properties });
        } catch (error) {
          console.warn(`[analytics] could not send ${event}`, error);
        }
      });
    },
    stop() {
      running = false;
      void ready.then((posthog) => {
        try {
          posthog?.stopSessionRecording();
        } catch (error) {
          console.warn('[analytics] could not stop session recording', error);
        }
      });
    },
  };
}
