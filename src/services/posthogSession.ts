import { POSTHOG_HOST, INTL_WARMUP_TIMEOUT_MS } from '@/config/site';
import { PAGE_VIEW_EVENT, type AnalyticsEvent } from './analytics';
import { nextIdlePeriod } from './idle';
import { extensionClasses, posthog, type PostHog, type PostHogConfig } from './posthogSdk';

// One period of allowed tracking's PostHog steps (spec §7.3), in a chunk of its own with the SDK
// (src/services/posthogSdk.ts): src/services/analytics.ts imports it in the first idle period after the
// load event, so that the SDK's evaluation is that period's task, and nothing of PostHog, nor this code,
// is in a page's first load. Each later step has an idle period of its own: the page's first Intl object,
// the SDK's init, the first page view, the recorder's chunk (src/services/posthogRecorder.ts), the
// recording's start.

/** A period of allowed tracking, once its PostHog steps have started ({@link startPostHogSession}). */
export interface PostHogSession {
  /** Sends the event once the SDK is initialised, while the period lasts. Never throws. */
  capture(event: AnalyticsEvent): void;
  /** Stops session recording once it has started (the period's gate already drops every event). Never throws. */
  stop(): void;
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

/** The SDK once a session's {@link loadPostHog} is done: `initialised` when this session's call initialised it. */
interface LoadedPostHog {
  posthog: PostHog;
  initialised: boolean;
}

/**
 * Resolves once the page is visible (at once when it is), as the SDK waits before its own first page
 * view: a page prerendered or opened in a background tab is not a page view until it is seen. Never rejects.
 */
function pageVisible(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'visible') {
      resolve();
      return;
    }
    const onChange = () => {
      if (document.visibilityState !== 'visible') return;
      document.removeEventListener('visibilitychange', onChange);
      resolve();
    };
    document.addEventListener('visibilitychange', onChange);
  });
}

/**
 * Creates the page's first Intl object in the next idle period (the SDK was evaluated in the one before,
 * with this module) and, in the one after, initialises the SDK once, or points an already initialised SDK
 * at the new session's gate. Resolves to null when the session ended meanwhile, and to null, logged, when
 * the SDK throws.
 */
async function loadPostHog(key: string, gate: (event: { event: string } | null) => unknown, isRunning: () => boolean): Promise<LoadedPostHog | null> {
  try {
    const intlWarm = warmUpIntlOffMainThread();
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
      return { posthog, initialised: false };
    }
    posthog.init(key, {
      api_host: POSTHOG_HOST,
      persistence: 'memory', // spec §7.3: memory-only: no cookie, no localStorage
      person_profiles: 'identified_only',
      // Page views (spec §7.3) are captured by the site: the first one by startPostHogSession, then one
      // per client-side route change (src/app/usePageViews.ts). The SDK's own first page view is sent
      // "instantly", which compresses it with fflate's gzip inside its task (a third of it, measured),
      // where any other event is compressed by the browser's CompressionStream, off the main thread.
      capture_pageview: false,
      capture_pageleave: true,
      // Started by startAnalyticsSession once the recorder's chunk is in, not by init.
      disable_session_recording: true,
      // The head's meta, scripts and comments left out of the recording (rrweb's slimDOMOptions, all but
      // title changes): a replay never shows them, and the first full snapshot is a long task.
      // inlineStylesheetBudgetRules: every stylesheet over 1 rule is recorded as it is written, not
      // serialised again rule by rule through the CSSOM (14% of the first snapshot, measured). The site
      // has one stylesheet, the static text inlined in each page's head; no script changes its rules.
      session_recording: { recordCrossOriginIframes: false, slimDOMOptions: true, inlineStylesheetBudgetRules: 1 },
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
    return { posthog, initialised: true };
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
 * Captures the page's first page view (`$pageview`, spec §7.3) in an idle period of its own once the page
 * is visible, as the SDK would at init (which it is kept from: {@link loadPostHog}), unless the session
 * ended meanwhile or a route change's page view came first (`captured()`: that one was of the page the
 * visitor is on by then). Never throws.
 */
async function captureFirstPageView(posthog: PostHog, isRunning: () => boolean, captured: () => boolean): Promise<void> {
  try {
    if (!(await nextIdlePeriod(isRunning))) return;
    await pageVisible();
    if (isRunning() && !captured()) posthog.capture(PAGE_VIEW_EVENT);
  } catch (error) {
    console.warn('[analytics] could not send the first page view', error);
  }
}

/**
 * Starts the PostHog steps of one period of allowed tracking: the first Intl object, init, the first page
 * view and the recorder's chunk (side by side), the recording, each in an idle period of its own, none
 * once `isRunning()` is false. Every event passes the period's gate (`before_send`), which drops it once
 * the period has ended. A route change's page view asked for before the SDK is initialised is dropped, as
 * the SDK's own history autocapture, not yet running then, would have missed it: the first page view,
 * sent once it is, is of the page the visitor is on by then. Never throws.
 * @param key - the PostHog project key (VITE_POSTHOG_KEY)
 * @param isRunning - whether the period still lasts (false once the visitor opted out)
 */
export function startPostHogSession(key: string, isRunning: () => boolean): PostHogSession {
  let loaded = false;
  let pageViewCaptured = false;
  const sdk = loadPostHog(key, (event) => (isRunning() ? event : null), isRunning).then((result) => {
    loaded = result !== null;
    if (result?.initialised) void captureFirstPageView(result.posthog, isRunning, () => pageViewCaptured);
    return result?.posthog ?? null;
  });
  const recording = sdk.then((instance) => (instance && isRunning() ? startRecording(instance, isRunning) : undefined));
  return {
    capture({ event, properties }) {
      if (event === PAGE_VIEW_EVENT) {
        if (!loaded) return;
        pageViewCaptured = true;
      }
      void sdk.then((posthog) => {
        try {
          if (isRunning()) posthog?.capture(event, { ...properties });
        } catch (error) {
          console.warn(`[analytics] could not send ${event}`, error);
        }
      });
    },
    stop() {
      void Promise.all([sdk, recording]).then(([loaded]) => {
        try {
          loaded?.stopSessionRecording();
        } catch (error) {
          console.warn('[analytics] could not stop session recording', error);
        }
      });
    },
  };
}
