// The PostHog SDK as the site loads it, in a chunk of its own that src/services/analytics.ts
// imports after the page's load event and an idle period: the slim entry point, which holds no extension,
// with only the extension spec §7.3 needs, session recording (page views and page leaves are the core's).
// `no-external`: nothing is ever fetched from PostHog's CDN.
import { SessionReplayExtensions } from 'posthog-js/dist/extension-bundles';
import posthog, { type PostHogConfig } from 'posthog-js/dist/module.slim.no-external';

export { posthog };
export type { PostHog, PostHogConfig } from 'posthog-js/dist/module.slim.no-external';

/**
 * PostHog's `__extensionClasses`: session recording alone. The recorder itself (rrweb) is another chunk,
 * src/services/posthogRecorder.ts, loaded later still. Not `AnalyticsExtensions`, whose history
 * autocapture would capture the page views of route changes: importing it brings its autocapture,
 * heatmaps, dead clicks and web vitals along (42 KB minified, a sixth of the chunk, evaluated in its
 * task), so the site captures those page views itself (src/app/usePageViews.ts).
 */
export const extensionClasses = {
  sessionRecording: SessionReplayExtensions.sessionRecording,
} as unknown as NonNullable<PostHogConfig['__extensionClasses']>;
