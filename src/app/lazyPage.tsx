import { lazy, type ComponentType } from 'react';

/** A route's page in a chunk of its own (issue #13), rendered without suspending once its chunk is in. */
export interface LazyPage {
  (): React.JSX.Element;
  /** Fetches the page's chunk (once; later calls share the first). Rejects when the chunk cannot be fetched. */
  preload(): Promise<void>;
}

/**
 * Route-level code splitting that keeps prerendering and hydration intact (issue #13). Until `preload()`
 * has resolved, the page is a `lazy` component: a client-side navigation suspends on it, inside the
 * router's transition, so the page being left stays on screen until the chunk is in
 * (src/app/prefetchOnIntent.ts fetches a link's chunk before the click). Once loaded, the page renders
 * synchronously: the prerender (src/entry-server.tsx) and hydration (src/main.tsx) preload the route's
 * page first, so the server HTML and the first client render match and nothing flashes.
 * @param load - the page module's dynamic import, e.g. `() => import('@/pages/Terms')`
 * @param pick - its component, e.g. `(module) => module.Terms`
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = pick(module);
      },
      (error: unknown) => {
        loading = undefined; // a later navigation tries again
        throw error;
      },
    ));
  const Suspending = lazy(async () => {
    await preload();
    return { default: loaded! };
  });
  const Page = () => {
    const Component = loaded ?? Suspending;
    return <Component />;
  };
  return Object.assign(Page, { preload });
}
