// PostHog's session recorder (rrweb and the SDK's recording code, about 72 KB gzip) in a chunk of its own.
// Importing it registers `rrweb` and `initSessionRecording` on `window.__PosthogExtensions__`,
// where the SDK's session recording looks for them instead of fetching them from PostHog's CDN
// (`disable_external_dependency_loading`). src/services/analytics.ts imports it after the SDK has
// started, in a later idle period. (`posthog-js/dist/recorder` alone holds rrweb without
// `initSessionRecording`, and recording then never starts.)
import 'posthog-js/dist/posthog-recorder';
