import '@testing-library/jest-dom/vitest';
// jsdom has no IndexedDB; the outbox (src/services/outboxStore.ts) runs on this in-memory one, emptied after each test.
import 'fake-indexeddb/auto';
import { clear as clearIndexedDb } from 'idb-keyval';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from '../mocks/node';
import { reuseComputedStyles } from './support/computedStyle';
import { fakePosthog } from './support/fakePosthog';
import { network, recordNetwork } from './support/network';

// No test loads the real PostHog SDK or its recorder: the one fake of tests/support stands in for the SDK's
// chunk (src/services/posthogSdk.ts), reset after each test; the recorder's chunk is empty.
vi.mock('@/services/posthogSdk', async () => ({ posthog: (await import('./support/fakePosthog')).fakePosthog, extensionClasses: {} }));
vi.mock('@/services/posthogRecorder', () => ({}));

const inBrowserEnvironment = typeof window !== 'undefined';

if (inBrowserEnvironment) {
  // jsdom implements neither scrolling nor matchMedia; the layout calls both (useScrollToHash).
  reuseComputedStyles(window);
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = vi.fn();
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
}

// Testing Library only advances *Jest's* fake clock after each user-event action (it looks for a global
// `jest`); point it at Vitest's, or an action awaited under vi.useFakeTimers() never settles.
(globalThis as { jest?: unknown }).jest = { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) };

// MSW intercepts the browser-side fetches of jsdom tests only; server tests talk to a real socket.
if (inBrowserEnvironment) {
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    recordNetwork(server);
  });
  afterAll(() => server.close());
}

afterEach(async () => {
  if (inBrowserEnvironment) {
    cleanup();
    vi.useRealTimers(); // fake-indexeddb schedules its work on timers
    await clearIndexedDb();
    server.resetHandlers();
    localStorage.clear();
    sessionStorage.clear();
  }
  network.reset();
  fakePosthog.reset();
  vi.useRealTimers();
});
