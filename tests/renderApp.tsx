import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { MemoryRouter, type InitialEntry } from 'react-router-dom';
import { AddressBar } from './support/addressBar';
import { vi } from 'vitest';
import { App } from '@/app/App';
import { preloadAllPages } from '@/app/routes';
import type { Inspect } from '@/context/inspect';

// Every page is its own chunk; loaded here once, as the browser loads a route's chunk before
// hydrating, so a test sees each page at its first render.
await preloadAllPages();

/**
 * The whole app at `path` (an address) in a memory router, inside `<StrictMode>` as src/hydrate.tsx and
 * src/entry-server.tsx render it: the element a test prerenders with `renderToString`, then hydrates.
 */
export const appAt = (path: string) => (
  <StrictMode>
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>
  </StrictMode>
);

/**
 * Renders the whole app (providers, layout, routes) at `path` (an address, or a location with its
 * history state) in a memory router, as a visitor would arrive there, inside `<StrictMode>`.
 * `location()` reads the current path, query and hash, to assert navigation.
 * With `fakeTimers`, user-event advances Vitest's fake clock; `inspect` observes every actor of the app.
 */
export function renderApp(path: InitialEntry = '/', options: { fakeTimers?: boolean; inspect?: Inspect } = {}) {
  const user = userEvent.setup(options.fakeTimers ? { advanceTimers: (ms) => vi.advanceTimersByTime(ms) } : {});
  let address = typeof path === 'string' ? path : `${path.pathname ?? '/'}${path.search ?? ''}${path.hash ?? ''}`;
  const record = (next: string) => {
    address = next;
  };
  // In StrictMode, as src/hydrate.tsx renders the app: an effect that is not idempotent fails a test.
  const result = render(
    <StrictMode>
      <MemoryRouter initialEntries={[path]}>
        <App inspect={options.inspect} />
        <AddressBar onChange={record} />
      </MemoryRouter>
    </StrictMode>,
  );
  return { ...result, user, location: () => address };
}
