// The PostHog SDK as the site loads it, in a chunk of its own that src/services/analytics.ts
// imports after the page's load event and an idle period: the slim entry point, which holds no extension,
// with only the two extensions spec §7.3 needs. `no-external`: nothing is ever fetched from PostHog's CDN.
import { AnalyticsExtensions, SessionReplayExtensions } from 'posthog-js/dist/extension-bundles';
import posthog, { type PostHogConfig } from 'posthog-js/dist/module.slim.no-external';

export { posthog };
export type { PostHog, PostHogConfig } from 'posthog-js/dist/module.slim.no-external';

/**
 * PostHog's `__extensionClasses`: page views on client-side route changes (`capture_pageview:
 * 'history_change'`) and session recording. The recorder itself (rrweb) is another chunk,
 * src/services/posthogRecorder.ts, loaded later still.
 */
export const extensionClasses = {
  historyAutocapture: AnalyticsExtensions.historyAutocapture,
  sessionRecording: SessionReplayExtensions.sessionRecording,
} as unknown as NonNullable<PostHogConfig['__extensionClasses']>;
