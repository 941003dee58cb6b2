import type { RouteObject } from 'react-router-dom';
import { matchRoutes } from 'react-router-dom';
import { Layout } from './Layout';
import { lazyPart, type LazyPart } from '@/components/lazyPart';

// Each page is a chunk of its own, so /privacy, /terms and /thank-you never download the
// forms, their machines or the home page's content; each page's form is a part of its own (lazyPart).
const Home = lazyPart(
  () => import('@/pages/Home'),
  (module) => module.Home,
  (module) => [module.InviteFormPart, module.EstimatorPart],
);
const Privacy = lazyPart(() => import('@/pages/Privacy'), (module) => module.Privacy);
const PrivacyRequest = lazyPart(
  () => import('@/pages/PrivacyRequest'),
  (module) => module.PrivacyRequest,
  (module) => [module.PrivacyRequestFormPart],
);
const VerifyPrivacyRequest = lazyPart(
  () => import('@/pages/VerifyPrivacyRequest'),
  (module) => module.VerifyPrivacyRequest,
  (module) => [module.PrivacyVerificationPart],
);
const Terms = lazyPart(() => import('@/pages/Terms'), (module) => module.Terms);
const ThankYou = lazyPart(() => import('@/pages/ThankYou'), (module) => module.ThankYou);
const NotFound = lazyPart(() => import('@/pages/NotFound'), (module) => module.NotFound);

/** Every page of the site, each in its chunk. */
const pages: readonly LazyPart[] = [Home, Privacy, PrivacyRequest, VerifyPrivacyRequest, Terms, ThankYou, NotFound];

/** The routes of spec §2, the verification page (11 CCR §7060), and a not-found page for every other path. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Home />, handle: { page: Home } },
      { path: 'privacy', element: <Privacy />, handle: { page: Privacy } },
      { path: 'privacy-request', element: <PrivacyRequest />, handle: { page: PrivacyRequest } },
      // Where a privacy request's verification link leads (noindex)
      { path: 'privacy-request/verify', element: <VerifyPrivacyRequest />, handle: { page: VerifyPrivacyRequest } },
      { path: 'terms', element: <Terms />, handle: { page: Terms } },
      { path: 'thank-you', element: <ThankYou />, handle: { page: ThankYou } },
      { path: '*', element: <NotFound />, handle: { page: NotFound } },
    ],
  },
];

/**
 * Fetches the chunk of the page at `pathname` (the not-found page for an unknown path), so that it
 * renders without suspending: before a navigation (src/app/prefetchOnIntent.ts) with the chunks of the
 * parts it renders, or before hydration (src/hydrate.tsx) its own chunk only, its parts then hydrating as
 * their chunks come in (the forms, after the load event).
 * @param options - `forHydration`: the page's own chunk only
 * @returns resolves when the chunks are in; rejects when one cannot be fetched
 */
export function preloadRoute(pathname: string, options: { forHydration?: boolean } = {}): Promise<void> {
  const handle = matchRoutes(routes, pathname)?.at(-1)?.route.handle as { page?: LazyPart } | undefined;
  const page = handle?.page ?? NotFound;
  return options.forHydration ? page.preloadForHydration() : page.preload();
}

/**
 * Fetches every page's chunk, so that each page renders completely at once, never a Suspense fallback:
 * before prerendering (src/entry-server.tsx) and in the view tests (tests/renderApp.tsx).
 * @returns resolves when all are in; rejects when one cannot be fetched
 */
export async function preloadAllPages(): Promise<void> {
  await Promise.all(pages.map((page) => page.preload()));
}
