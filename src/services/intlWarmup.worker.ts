// A dedicated worker of the page, started by src/services/analytics.ts before PostHog's first event: it
// creates one Intl.DateTimeFormat, as posthog-js does for `$timezone`, and says so. V8 builds its list of
// date-format locales on a process's first Intl.DateTimeFormat, once for every thread of the renderer
// process: built here, on the worker's thread, it costs the page's main thread nothing.
Intl.DateTimeFormat().resolvedOptions();
postMessage('ready');
