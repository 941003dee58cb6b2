import type { PostHog } from 'posthog-js/dist/module.full.no-external';
import { POSTHOG_HOST, POSTHOG_KEY } from '@/config/site';

/**
 * PostHog behind one service (spec §7.3). The SDK is fetched with a dynamic import only when tracking
 * is allowed and `VITE_POSTHOG_KEY` is set, so it is never in the first-load bundle and never fetched
 * for a visitor who opted out or sends GPC.
 *
 * Opting out does not call `posthog.opt_out_capturing()`, which writes an opt-out flag to localStorage
 * even in memory mode (DESIGN.md §3). Instead every event passes `before_send`, which drops it while
 * tracking is not allowed, and session recording is stopped: nothing more is sent, nothing is stored.
 * Every failure is logged and ignored (spec §8): analytics never breaks the page or a form.
 */

let allowed = false;
let client: Promise<PostHog | null> | null = null;

function load(): Promise<PostHog | null> {
  client ??= import('posthog-js/dist/module.full.no-external')
    .then(({ default: posthog }) => {
      posthog.init(POSTHOG_KEY!, {
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
        before_send: (event) => (allowed ? event : null),
      });
      return posthog;
    })
    .catch((error: unknown) => {
      console.warn('[analytics] PostHog could not be loaded; analytics is off', error);
      client = null;
      return null;
    });
  return client;
}

/** True when analytics can run at all: a PostHog key was configured at build time. */
export function isAnalyticsConfigured(): boolean {
  return Boolean(POSTHOG_KEY);
}

/**
 * Tracking is allowed (spec §4 'accepted'): loads PostHog on first call, then captures and records.
 * Resolves when PostHog is ready, or at once when no key is configured; never rejects.
 */
export async function enableAnalytics(): Promise<void> {
  allowed = true;
  if (!isAnalyticsConfigured()) return;
  const posthog = await load();
  if (!posthog || !allowed) return;
  try {
    if (!posthog.sessionRecordingStarted()) posthog.startSessionRecording();
  } catch (error) {
    console.warn('[analytics] could not start session recording', error);
  }
}

/**
 * Tracking is rejected (spec §4): from this call on nothing is captured or sent, and session recording
 * stops. PostHog is not loaded if it was not already. Never throws.
 */
export function disableAnalytics(): void {
  allowed = false;
  void client?.then((posthog) => {
    try {
      posthog?.stopSessionRecording();
    } catch (error) {
      console.warn('[analytics] could not stop session recording', error);
    }
  });
}

/**
 * Sends an event when tracking is allowed at this moment (spec §7.3); otherwise does nothing.
 * @param event - e.g. `invite_request_submitted`
 * @param properties - the event's data, e.g. the submission body's `data`
 */
export function captureEvent(event: string, properties: object): void {
  if (!allowed || !isAnalyticsConfigured()) return;
  void load().then((posthog) => {
    try {
      if (allowed) posthog?.capture(event, { ...properties });
    } catch (error) {
      console.warn(`[analytics] could not send ${event}`, error);
    }
  });
}
