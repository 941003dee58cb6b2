import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from '@/app/App';
import { prefetchPagesOnIntent } from '@/app/prefetchOnIntent';
import { preloadRoute } from '@/app/routes';
import { loadStatelyInspector } from '@/context/inspect';
import '@/styles/theme.css';
import '@/styles/global.css';

// The app: imported by src/main.tsx once the prerendered page is painted; hydrates it, or renders it afresh.

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// scripts/build.mjs prerenders each route; the HTML of another path (a host's fallback page, a trailing
// slash) is not this route's, so it is rendered afresh instead of hydrated.
const prerendered = root.dataset.prerendered === window.location.pathname;

// In a build the inspector is never wanted, so this resolves at once with undefined. The page's chunk
// (one per route) is fetched before the first render while the prerendered HTML is already
// on screen, so hydration renders exactly the prerendered page without suspending; a part of it that can
// wait (a form) hydrates once its own chunk is in. Rendered afresh, the page waits for all of
// them, so that no part appears late. If a chunk cannot be fetched, the app renders anyway and the
// layout's error boundary says so.
const page = preloadRoute(window.location.pathname, { forHydration: prerendered }).then(
  () => true,
  (error: unknown) => {
    console.error('[page] could not be loaded:', error);
    return false;
  },
);
void Promise.all([loadStatelyInspector(), page]).then(([inspect, pageLoaded]) => {
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App inspect={inspect} />
      </BrowserRouter>
    </StrictMode>
  );
  if (pageLoaded && prerendered) {
    // In a transition, hydration is rendered in slices that yield to the browser every few milliseconds
    // instead of one long task; each <Suspense> boundary of the page hydrates later still, on its own
    // (https://react.dev/reference/react-dom/client/hydrateRoot, selective hydration).
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
  prefetchPagesOnIntent();
});
