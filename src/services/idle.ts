import { ANALYTICS_IDLE_TIMEOUT_MS } from '@/config/site';

// The idle periods after the load event: what a page does not need at its first paint waits for one, in a
// task of its own (spec §7.3: PostHog never costs the visitor the page). Analytics' session start
// (src/services/analytics.ts, in the first load) and its PostHog steps (src/services/posthogSession.ts, a
// chunk fetched after the load event) wait for one each; so does the outbox's start (src/app/providers.tsx).

/**
 * Resolves in the browser's next idle period (`requestIdleCallback`), or `timeoutMs` ms from now at the
 * latest; where the browser has no `requestIdleCallback` (Safari), in the next task. Never rejects.
 * @param timeoutMs - the longest wait for an idle period, in ms
 */
export function idlePeriod(timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 0);
  });
}

/**
 * Resolves after the page's load event, in the browser's next idle period ({@link idlePeriod}), or
 * `timeoutMs` ms after the load event at the latest. Never rejects.
 * @param timeoutMs - the longest wait for an idle period once the load event has fired, in ms
 */
function afterLoadWhenIdle(timeoutMs: number): Promise<void> {
  if (document.readyState === 'complete') return idlePeriod(timeoutMs);
  return new Promise((resolve) => {
    window.addEventListener('load', () => resolve(idlePeriod(timeoutMs)), { once: true });
  });
}

/**
 * Waits for an idle period of its own ({@link afterLoadWhenIdle}, ANALYTICS_IDLE_TIMEOUT_MS ms at the
 * longest); resolves to whether the session still runs.
 */
export async function nextIdlePeriod(isRunning: () => boolean): Promise<boolean> {
  await afterLoadWhenIdle(ANALYTICS_IDLE_TIMEOUT_MS);
  return isRunning();
}
