import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { loadStatelyInspector } from '@/context/inspect';
import '@/styles/theme.css';
import '@/styles/global.css';
import { TeamApp } from './TeamApp';

// The team console's app: imported by src/main.tsx, on `/team` and every path under it, once the page is
// painted. Nothing of the public site's app is reached from here (tests/build/bundle.test.ts).

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root element');

// scripts/build.mjs prerenders `/team` (the sign-in screen) into team.html, which the server answers for
// every path under `/team`; another path's page is rendered afresh instead of hydrated.
const prerendered = root.dataset.prerendered === window.location.pathname;

void loadStatelyInspector().then((inspect) => {
  const app = (
    <StrictMode>
      <BrowserRouter>
        <TeamApp inspect={inspect} />
      </BrowserRouter>
    </StrictMode>
  );
  if (prerendered) {
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
});
