import { ANALYTICS_IDLE_TIMEOUT_MS } from '@/config/site';

// The idle periods analytics waits for (spec §7.3: PostHog never costs the visitor the page): shared by the
// session's start (src/services/analytics.ts, in the first load) and its PostHog steps
// (src/services/posthogSession.ts, a chunk fetched after the load event).

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
export async function nextIdlePeriod(isRunning: () => boolean): Promise<boolean> {
  await afterLoadWhenIdle();
  return isRunning();
}
