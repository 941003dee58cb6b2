import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { receivedSubmissions } from '../mocks/handlers';
import { server } from '../mocks/node';

// jsdom implements neither scrolling nor matchMedia; the layout calls both (useScrollToHash).
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

// Testing Library only advances *Jest's* fake clock after each user-event action; point it at Vitest's,
// or an action awaited under vi.useFakeTimers() never settles (testing-library/react-testing-library#1197).
(globalThis as { jest?: unknown }).jest = { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  receivedSubmissions.length = 0;
  localStorage.clear();
  vi.useRealTimers();
});
afterAll(() => server.close());
