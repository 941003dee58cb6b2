import type { RouteObject } from 'react-router-dom';
import { matchRoutes } from 'react-router-dom';
import { Layout } from './Layout';
import { lazyPage, type LazyPage } from './lazyPage';

// Issue #13: each page is a chunk of its own, so /privacy, /terms and /thank-you never download the
// forms, their machines or the home page's content.
const Home = lazyPage(() => import('@/pages/Home'), (module) => module.Home);
const Privacy = lazyPage(() => import('@/pages/Privacy'), (module) => module.Privacy);
const PrivacyRequest = lazyPage(() => import('@/pages/PrivacyRequest'), (module) => module.PrivacyRequest);
const Terms = lazyPage(() => import('@/pages/Terms'), (module) => module.Terms);
const ThankYou = lazyPage(() => import('@/pages/ThankYou'), (module) => module.ThankYou);
const NotFound = lazyPage(() => import('@/pages/NotFound'), (module) => module.NotFound);

/** Every page of the site, each in its chunk. */
const pages: readonly LazyPage[] = [Home, Privacy, PrivacyRequest, Terms, ThankYou, NotFound];

/** The routes of spec §2, plus a not-found page for every other path. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Home />, handle: { page: Home } },
      { path: 'privacy', element: <Privacy />, handle: { page: Privacy } },
      { path: 'privacy-request', element: <PrivacyRequest />, handle: { page: PrivacyRequest } },
      { path: 'terms', element: <Terms />, handle: { page: Terms } },
      { path: 'thank-you', element: <ThankYou />, handle: { page: ThankYou } },
      { path: '*', element: <NotFound />, handle: { page: NotFound } },
    ],
  },
];

/**
 * Fetches the chunk of the page at `pathname` (the not-found page for an unknown path), so that it
 * renders without suspending: before hydration (src/main.tsx) and before prerendering.
 * @returns resolves when the chunk is in; rejects when it cannot be fetched
 */
export function preloadRoute(pathname: string): Promise<void> {
  const handle = matchRoutes(routes, pathname)?.at(-1)?.route.handle as { page?: LazyPage } | undefined;
  return (handle?.page ?? NotFound).preload();
}

/**
 * Fetches every page's chunk, so that each page renders completely at once, never a Suspense fallback:
 * before prerendering (src/entry-server.tsx) and in the view tests (tests/renderApp.tsx).
 * @returns resolves when all are in; rejects when one cannot be fetched
 */
export async function preloadAllPages(): Promise<void> {
  await Promise.all(pages.map((page) => page.preload()));
}
