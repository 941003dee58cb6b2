/**
 * The one fake PostHog SDK of the jsdom tests. tests/setup.ts puts it in place of the dynamically
 * imported `posthog-js` module for every test file and resets it after each test, so no test sees the
 * SDK state an earlier one left. It behaves like the SDK where the site depends on it: `init` once per
 * page (a second `init` is a no-op), `set_config` merges, and every event — the automatic page view of
 * `init` included — passes `before_send` before it counts as sent.
 *
 * A test turns analytics on by giving the build a key: `vi.mock('@/config/site', …POSTHOG_KEY…)`.
 */

type BeforeSend = (event: { event: string; properties?: object }) => unknown;

/** What the site configured: the `init` options, with later `set_config` calls merged in. */
export type FakePosthogConfig = { before_send?: BeforeSend; [option: string]: unknown };

interface FakePosthogState {
  __loaded: boolean;
  config: FakePosthogConfig | undefined;
  /** how many times `init` ran (the SDK initialises once per page) */
  initCalls: number;
  /** every event that passed `before_send`, in order: what PostHog would have received */
  sent: Array<{ event: string; properties?: object }>;
  recording: boolean;
  optOutCalls: number;
}

function freshState(): FakePosthogState {
  return { __loaded: false, config: undefined, initCalls: 0, sent: [], recording: false, optOutCalls: 0 };
}

export const fakePosthog = {
  ...freshState(),
  init(_key: string, config: FakePosthogConfig) {
    fakePosthog.initCalls += 1;
    if (fakePosthog.__loaded) return;
    fakePosthog.__loaded = true;
    fakePosthog.config = { ...config };
    if (config.capture_pageview) fakePosthog.capture('$pageview', {});
  },
  set_config(config: Partial<FakePosthogConfig>) {
    fakePosthog.config = { ...fakePosthog.config, ...config };
  },
  capture(event: string, properties?: object) {
    const kept = fakePosthog.config?.before_send ? fakePosthog.config.before_send({ event, properties }) : { event, properties };
    if (kept) fakePosthog.sent.push({ event, properties });
  },
  startSessionRecording() {
    fakePosthog.recording = true;
  },
  stopSessionRecording() {
    fakePosthog.recording = false;
  },
  sessionRecordingStarted: () => fakePosthog.recording,
  opt_out_capturing() {
    fakePosthog.optOutCalls += 1;
  },

  /** True when PostHog would send an event now: it is loaded and `before_send` lets the event through. */
  isCapturing(): boolean {
    const beforeSend = fakePosthog.config?.before_send;
    return fakePosthog.__loaded && (!beforeSend || beforeSend({ event: '$pageview' }) !== null);
  },
  /** The events sent with this name, in order. */
  sentEvents(name: string) {
    return fakePosthog.sent.filter((event) => event.event === name);
  },
  /** Back to a page that never loaded PostHog (tests/setup.ts, after each test). */
  reset() {
    Object.assign(fakePosthog, freshState());
  },
};
