import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as SiteConfig from '@/config/site';
import { ANALYTICS_IDLE_TIMEOUT_MS, INTL_WARMUP_TIMEOUT_MS } from '@/config/site';
import { startAnalyticsSession } from '@/services/analytics';
import { fakePosthog as posthog } from '../support/fakePosthog';

// A key, as in a deployment; the SDK is the fake of tests/support (tests/setup.ts).
vi.mock('@/config/site', async (importOriginal) => ({ ...(await importOriginal<typeof SiteConfig>()), POSTHOG_KEY: 'phc_test' }));

/** The page as the browser has it while loading: readyState, and the idle callbacks asked for, run by the test. */
let readyState: DocumentReadyState;
let idleCallbacks: Array<{ run: () => void; timeout: number | undefined }>;

beforeEach(() => {
  readyState = 'loading';
  idleCallbacks = [];
  vi.spyOn(document, 'readyState', 'get').mockImplementation(() => readyState);
  window.requestIdleCallback = ((callback: IdleRequestCallback, options?: IdleRequestOptions) => {
    idleCallbacks.push({ run: () => callback({ didTimeout: false, timeRemaining: () => 50 }), timeout: options?.timeout });
    return idleCallbacks.length;
  }) as typeof window.requestIdleCallback;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
});

/** A dedicated worker as the page would start it (jsdom has none): its script, whether it was ended, and `answer()`. */
class FakeWorker extends EventTarget {
  static started: FakeWorker[] = [];
  readonly script: string;
  terminated = false;
  constructor(script: URL | string) {
    super();
    this.script = String(script);
    FakeWorker.started.push(this);
  }
  terminate() {
    this.terminated = true;
  }
  answer() {
    this.dispatchEvent(new MessageEvent('message', { data: 'ready' }));
  }
}

/** Lets the dynamic imports (the session's chunk, the SDK's, the recorder's) and promise chains that follow an event run. */
const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 10));
  await vi.dynamicImportSettled();
  await new Promise((resolve) => setTimeout(resolve, 10));
};

function load() {
  readyState = 'complete';
  window.dispatchEvent(new Event('load'));
}

async function runIdleCallback() {
  const next = idleCallbacks.shift();
  if (!next) throw new Error('no idle callback was asked for');
  next.run();
  await settle();
  return next;
}

describe('analytics loading (PostHog never costs the visitor the page)', () => {
  it('loads nothing before the load event; then, each in an idle period of its own: the SDK, the first Intl object, its init, the first page view and the recorder, recording', async () => {
    const session = startAnalyticsSession();
    session.capture({ event: 'invite_request_submitted', properties: { workEmail: 'ada@example.com' } });
    await settle();
    expect(idleCallbacks).toHaveLength(0); // nothing scheduled while the page loads
    expect(posthog.initCalls).toBe(0);

    load();
    expect(idleCallbacks.map((c) => c.timeout)).toEqual([ANALYTICS_IDLE_TIMEOUT_MS]);
    expect(posthog.initCalls).toBe(0); // the load event alone does not load it

    const intl = vi.spyOn(Intl, 'DateTimeFormat');
    await runIdleCallback(); // the SDK's chunk
    expect(posthog.initCalls).toBe(0);
    expect(intl).not.toHaveBeenCalled();
    await runIdleCallback(); // the page's first Intl object, which posthog-js's first event would create
    expect(intl).toHaveBeenCalledTimes(1);
    expect(posthog.initCalls).toBe(0);
    await runIdleCallback(); // its init, in the next idle period
    expect(posthog.initCalls).toBe(1);
    expect(posthog.config).toMatchObject({ disable_session_recording: true, disable_external_dependency_loading: true });
    // the event captured while the page was loading is sent, not lost
    expect(posthog.sentEvents('invite_request_submitted')).toEqual([{ event: 'invite_request_submitted', properties: { workEmail: 'ada@example.com' } }]);
    expect(posthog.recording).toBe(false);
    // page views are the site's: init sends none
    expect(posthog.config?.capture_pageview).toBe(false);
    expect(posthog.sentEvents('$pageview')).toEqual([]);

    await runIdleCallback(); // the first page view, in an idle period of its own
    expect(posthog.sentEvents('$pageview')).toHaveLength(1);
    await runIdleCallback(); // the recorder's chunk, asked for beside the page view
    expect(posthog.recording).toBe(false);
    await runIdleCallback(); // recording starts in the idle period after
    expect(posthog.recording).toBe(true);
    session.stop();
    await settle();
    expect(posthog.recording).toBe(false);
  });

  it('a session stopped before the page is idle (an opt-out during load) never loads PostHog', async () => {
    const session = startAnalyticsSession();
    load();
    session.stop();
    await runIdleCallback();
    expect(posthog.initCalls).toBe(0);
    expect(idleCallbacks).toHaveLength(0);
  });

  it.each([
    ['its chunk', 1],
    ['the first Intl object', 2],
  ])('stopped between the SDK (after %s) and its init (an opt-out just then): PostHog is never initialised', async (_step, idlePeriods) => {
    const session = startAnalyticsSession();
    load();
    for (let i = 0; i < idlePeriods; i += 1) await runIdleCallback();
    session.stop();
    await runIdleCallback();
    expect(posthog.initCalls).toBe(0);
    expect(idleCallbacks).toHaveLength(0);
  });

  it('stopped after the SDK loaded but before the recorder: the recorder is never started', async () => {
    const session = startAnalyticsSession();
    load();
    for (let i = 0; i < 3; i += 1) await runIdleCallback(); // the SDK's chunk, the first Intl object, init
    expect(posthog.initCalls).toBe(1);
    session.stop();
    await runIdleCallback();
    await runIdleCallback();
    expect(posthog.recording).toBe(false);
    expect(posthog.sentEvents('$pageview')).toEqual([]);
    expect(posthog.isCapturing()).toBe(false);
  });

  it("creates the page's first Intl object only once a worker of the page has (ICU's start off the main thread), then ends the worker", async () => {
    FakeWorker.started = [];
    vi.stubGlobal('Worker', FakeWorker);
    const intl = vi.spyOn(Intl, 'DateTimeFormat');
    startAnalyticsSession();
    load();
    await runIdleCallback(); // the SDK's chunk; the worker starts beside it
    expect(FakeWorker.started.map((worker) => worker.script)).toEqual([expect.stringMatching(/\/intlWarmup\.worker\.ts\b/)]);
    await runIdleCallback(); // the first Intl object's idle period: it waits for the worker
    expect(intl).not.toHaveBeenCalled();
    FakeWorker.started[0]!.answer();
    await settle();
    expect(intl).toHaveBeenCalledTimes(1);
    expect(FakeWorker.started[0]!.terminated).toBe(true);
    await runIdleCallback(); // then init, as without a worker
    expect(posthog.initCalls).toBe(1);
  });

  it(`goes on without the worker's answer after INTL_WARMUP_TIMEOUT_MS (${INTL_WARMUP_TIMEOUT_MS} ms), not before`, async () => {
    FakeWorker.started = [];
    vi.stubGlobal('Worker', FakeWorker);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const intl = vi.spyOn(Intl, 'DateTimeFormat');
    startAnalyticsSession();
    load();
    idleCallbacks.shift()!.run(); // the SDK's chunk; the worker starts, and never answers
    await vi.dynamicImportSettled();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeWorker.started).toHaveLength(1);
    idleCallbacks.shift()!.run();
    await vi.advanceTimersByTimeAsync(INTL_WARMUP_TIMEOUT_MS - 1);
    expect(intl).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(intl).toHaveBeenCalledTimes(1);
    expect(FakeWorker.started[0]!.terminated).toBe(true);
  });

  it('where the browser has no requestIdleCallback (Safari), loads in the task after the load event', async () => {
    delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
    startAnalyticsSession();
    await settle();
    expect(posthog.initCalls).toBe(0);
    load();
    await vi.waitFor(() => expect(posthog.recording).toBe(true));
    expect(posthog.initCalls).toBe(1);
  });
});
