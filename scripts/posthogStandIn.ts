// A local stand-in for PostHog's ingestion host, for `npm run bench` and the e2e tests: it
// answers the calls posthog-js makes as PostHog does — the remote config, feature flags, events (/e/)
// and session recordings (/s/) — so the SDK runs its whole path (recording included), and records every
// call. Nothing leaves the machine.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';

/** One call the SDK made: its method, path (no query) and arrival time (ms since the epoch). */
export interface PostHogCall {
  method: string;
  path: string;
  at: number;
}

/** The remote config of a project with session recording on and everything §7.3 leaves out off. */
const remoteConfig = {
  sessionRecording: { endpoint: '/s/', recordCanvas: false, consoleLogRecordingEnabled: false, networkPayloadCapture: null },
  supportedCompression: ['gzip', 'gzip-js'],
  autocapture_opt_out: true,
  autocaptureExceptions: false,
  capturePerformance: false,
  heatmaps: false,
  surveys: false,
  siteApps: [],
  hasFeatureFlags: false,
  elementsChainAsString: true,
  defaultIdentifiedOnly: true,
};

/**
 * PostHog's answer to a call: JSON body and status 200, as its ingestion host gives them.
 * @param path - the request's path, e.g. `/e/`, `/flags/`, `/array/phc_…/config`
 */
export function postHogAnswer(path: string): object {
  if (/^\/array\/[^/]+\/config$/.test(path)) return remoteConfig;
  if (path.startsWith('/flags') || path.startsWith('/decide')) {
    return { ...remoteConfig, flags: {}, featureFlags: {}, featureFlagPayloads: {}, errorsWhileComputingFlags: false, quotaLimited: [], requestId: 'standin' };
  }
  return { status: 1 }; // /e/, /s/, /i/v0/e/, /batch/: accepted
}

/**
 * Starts the stand-in on 127.0.0.1:`port`.
 * @returns its origin (for VITE_POSTHOG_HOST), the calls so far, and `stop()`
 * @throws when the port is taken
 */
export async function startPostHogStandIn(port: number): Promise<{ origin: string; calls: PostHogCall[]; stop: () => Promise<void> }> {
  const calls: PostHogCall[] = [];
  const app = new Hono();
  app.use('*', cors({ origin: (origin) => origin, credentials: true }));
  app.all('*', (c) => {
    if (c.req.method !== 'OPTIONS') calls.push({ method: c.req.method, path: c.req.path, at: Date.now() });
    return c.json(postHogAnswer(c.req.path));
  });
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(started));
    started.once('error', reject);
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
