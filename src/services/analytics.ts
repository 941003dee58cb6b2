import { ANALYTICS_IDLE_TIMEOUT_MS, INTL_WARMUP_TIMEOUT_MS, POSTHOG_HOST, POSTHOG_KEY } from '@/config/site';
import type { PostHog, PostHogConfig } from './posthogSdk';

/**
 * PostHog behind one service (spec §7.3). The SDK is fetched with a dynamic import only when tracking
 * is allowed and `VITE_POSTHOG_KEY` is set, so it is never in the first-load bundle and never fetched
 * for a visitor who opted out or sends GPC.
 *
 * It never costs the visitor the page: nothing of PostHog is requested before the load
 * event. Five steps, each in an idle period of its own (so no two are one long task): importing the
 * SDK (src/services/posthogSdk.ts: the slim entry point with two extensions), creating the page's first
 * Intl object (which the SDK's first event would otherwise create; ICU's start is paid by a worker,
 * {@link warmUpIntlOffMainThread}), initialising the SDK, importing the session recorder
 * (src/services/posthogRecorder.ts), and starting the recording; so recording never starts inside the
 * load window.
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
  /** Sends the event while the session runs (once the SDK has loaded); afterwards does nothing. Never throws. */
  capture(event: AnalyticsEvent): void;
  /** Ends the session: nothing is loaded, captured or sent from this call on, and session recording stops. Never throws. */
  stop(): void;
}

/**
 * Resolves after the page's load event, in the browser's next idle period (`requestIdleCallback`), or
 * ANALYTICS_IDLE_TIMEOUT_MS ms after the load event at the latest. Where the browser has no
 * `requestIdleCallback` (Safari), in the task after the load event. Never rejects.
 */
function afterLoadWhenIdle(): Promise<void> {
  return new Promise((resolve) => {
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => resolve(), { timeout: ANALYTICS_IDLE_TIMEOUT_MS });
      else setTimeout(resolve, 0);
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  });
}

/** Waits for an idle period of its own ({@link afterLoadWhenIdle}); resolves to whether the session still runs. */
async function nextIdlePeriod(isRunning: () => boolean): Promise<boolean> {
  await afterLoadWhenIdle();
  return isRunning();
}

/**
 * Has a dedicated worker of the page (src/services/intlWarmup.worker.ts) create an Intl.DateTimeFormat.
 * A page's first one costs 13–30 ms on the main thread (measured in Chromium on this project's machines):
 * V8 then builds its list of date-format locales, once per renderer process, for every thread of it.
 * Built on the worker's thread, the main thread's first Intl.DateTimeFormat costs about 0.1 ms.
 * Resolves, and ends the worker, once it has answered or {@link INTL_WARMUP_TIMEOUT_MS} ms have passed
 * without an answer; at once where no worker can be started. Never rejects.
 */
function warmUpIntlOffMainThread(): Promise<void> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./intlWarmup.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve();
    };
    const timer = setTimeout(done, INTL_WARMUP_TIMEOUT_MS);
    worker.addEventListener('message', done, { once: true });
    worker.addEventListener('error', done, { once: true });
  });
}

/**
 * Imports the SDK (cached by the module loader after the first call), creates the page's first Intl
 * object in the next idle period and, in the one after, initialises the SDK once, or points an already
 * initialised SDK at the new session's gate. Resolves to null when the session ended meanwhile, and to
 * null, logged, when the import fails.
 */
async function loadPostHog(key: string, gate: (event: { event: string } | null) => unknown, isRunning: () => boolean): Promise<PostHog | null> {
  try {
    const intlWarm = warmUpIntlOffMainThread();
    const { posthog, extensionClasses } = await import('./posthogSdk');
    // Evaluating the chunk and initialising the SDK are each a long task on a slow phone: not one task.
    if (!(await nextIdlePeriod(isRunning))) return null;
    // posthog-js reads `$timezone` from Intl.DateTimeFormat on its first event. Created here, once the
    // worker has paid ICU's start (or, without a worker, paying it here, in an idle period of its own),
    // rather than inside the task that captures the first page view.
    await intlWarm;
    Intl.DateTimeFormat().resolvedOptions();
    if (!(await nextIdlePeriod(isRunning))) return null;
    const beforeSend = gate as NonNullable<PostHogConfig['before_send']>;
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
      // Started by startAnalyticsSession once the recorder's chunk is in, not by init.
      disable_session_recording: true,
      session_recording: { recordCrossOriginIframes: false },
      // Not in spec §7.3's list, so off: click autocapture, surveys, exceptions, heatmaps, dead clicks.
      autocapture: false,
      disable_surveys: true,
      capture_exceptions: false,
      capture_heatmaps: false,
      capture_dead_clicks: false,
      // No script from PostHog's CDN at run time: the recorder is a chunk of this build.
      disable_external_dependency_loading: true,
      // With batching, an event captured just before an opt-out would still leave afterwards.
      request_batching: false,
      before_send: beforeSend,
      __extensionClasses: extensionClasses,
    });
    return posthog;
  } catch (error) {
    console.warn('[analytics] PostHog could not be loaded; analytics is off', error);
    return null;
  }
}

/** Loads the session recorder's chunk in an idle period, then starts recording if the session still runs. */
async function startRecording(posthog: PostHog, isRunning: () => boolean): Promise<void> {
  try {
    if (!(await nextIdlePeriod(isRunning))) return;
    await import('./posthogRecorder');
    // the first snapshot of the page in a task of its own, not the chunk's
    if ((await nextIdlePeriod(isRunning)) && !posthog.sessionRecordingStarted()) posthog.startSessionRecording();
  } catch (error) {
    console.warn('[analytics] could not start session recording', error);
  }
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
  const sdk: Promise<PostHog | null> = key
    ? nextIdlePeriod(isRunning).then((stillRunning) => (stillRunning ? loadPostHog(key, (event) => (running ? event : null), isRunning) : null))
    : Promise.resolve(null);
  const recording = sdk.then((posthog) => (posthog && running ? startRecording(posthog, isRunning) : undefined));

  return {
    capture({ event, properties }) {
      void sdk.then((posthog) => {
        try {
          if (running) posthog?.capture(event, { ...properties });
        } catch (error) {
          console.warn(`[analytics] could not send ${event}`, error);
        }
      });
    },
    stop() {
      running = false;
      void Promise.all([sdk, recording]).then(([posthog]) => {
        try {
          posthog?.stopSessionRecording();
        } catch (error) {
          console.warn('[analytics] could not stop session recording', error);
        }
      });
    },
  };
}
