import { stripVerificationFragment } from '@/utils/verificationFragment';

// The page's entry. In a build it is imported by the page's inline loader once the browser has reported
// the first contentful paint (scripts/build.mjs `entryLoader`): the prerendered page is whole without it,
// so nothing of the app competes with that paint. It imports the app (src/hydrate.tsx: React, the router,
// the app-wide machines, the route's page), which hydrates the page; nothing waits for the app but its
// controls.

// 11 CCR §7060: a verification link's token leaves the address bar before anything else of the app runs
// (analytics starts after the load event), on every route; and on each later navigation to a fragment,
// before the router or analytics hear of it (these listeners are the page's first).
const strip = () => stripVerificationFragment(window.location, window.history);
strip();
window.addEventListener('popstate', strip);
window.addEventListener('hashchange', strip);

/** Whether an address is the team console's: `/team`, or a path under it. */
function isTeamPath(pathname: string): boolean {
  return pathname === '/team' || pathname.startsWith('/team/');
}

// The team console is an app of its own (src/app/team/hydrate.tsx: its own providers, no consent, no
// PostHog). A production build is either the site's or the console's (scripts/build.mjs makes both, the
// console's with __TEAM_BUILD__ true, and writes it to team.html only): the site's chunks hold nothing of
// the console's, so no public route's first load changes, and the console's hold nothing of the site's app,
// so PostHog cannot load on /team. The dev server serves both from this one entry, by the path.
const isTeam = (import.meta.env.DEV && isTeamPath(window.location.pathname)) || __TEAM_BUILD__;

/** Resolves in a later task of the browser's: at once, where it has no `scheduler.yield()`, on a zero timer. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return typeof scheduler?.yield === 'function' ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

// React DOM is evaluated first, in a task of its own, and the app in the next: as one module graph, both
// were one long task of evaluation on a slow phone (DESIGN.md §4, TBT). The build's page loader
// preloads both chunks at once (scripts/build.mjs `entryLoader`), so the second waits for no download.
const app = import('react-dom/client')
  .then(nextTask)
  .then(() => (isTeam ? import('./app/team/hydrate') : import('./hydrate')));
app.catch((error: unknown) => console.error('[app] could not be loaded:', error));
