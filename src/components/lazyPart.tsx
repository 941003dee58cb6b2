import { lazy, type ComponentType } from 'react';

/** A part of the site in a chunk of its own (a route's page, a section's code), rendered without suspending once its chunk is in. */
export interface LazyPart {
  (): React.JSX.Element;
  /**
   * Fetches the part's chunk and those of the parts it renders itself (once; later calls share the first),
   * so that it renders whole at once: before a navigation to it, the prerender, the view tests.
   * Rejects when a chunk cannot be fetched.
   */
  preload(): Promise<void>;
  /**
   * Fetches the part's own chunk only: enough to hydrate it, since each part it renders has a `<Suspense>`
   * boundary of its own, which stays as prerendered until that part's chunk is in.
   */
  preloadForHydration(): Promise<void>;
}

/**
 * Code splitting that keeps prerendering and hydration intact (DESIGN.md §4 budgets): a route's page
 * (src/app/routes.tsx) or a part of one that can wait (the forms). Until it is ready, the part is a
 * `lazy` component: a client-side navigation suspends on it, inside the router's transition, so the page being
 * left stays on screen until the chunk is in (src/app/prefetchOnIntent.ts fetches a link's chunk before
 * the click); while hydrating, its `<Suspense>` boundary keeps the prerendered HTML until it is in. Once
 * ready, it renders synchronously: the prerender (src/entry-server.tsx) preloads every part and hydration
 * (src/hydrate.tsx) the route's page, so the server HTML and the first client render match and nothing flashes.
 * @param load - the module's dynamic import, e.g. `() => import('@/pages/Terms')`
 * @param pick - its component, e.g. `(module) => module.Terms`
 * @param parts - the parts the component renders itself, each a {@link LazyPart} of its module, e.g.
 *   `(module) => [module.InviteFormPart]`
 */
export function lazyPart<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, parts: (module: M) => readonly LazyPart[] = () => []): LazyPart {
  let component: ComponentType | undefined;
  let ready = false;
  let loadingModule: Promise<M> | undefined;
  let loading: Promise<void> | undefined;
  const loadModule = () =>
    (loadingModule ??= load().then(
      (module) => {
        component = pick(module);
        return module;
      },
      (error: unknown) => {
        loadingModule = undefined; // a later navigation tries again
        throw error;
      },
    ));
  const preloadForHydration = () =>
    loadModule().then(() => {
      ready = true;
    });
  const preload = () =>
    (loading ??= loadModule()
      .then((module) => Promise.all(parts(module).map((part) => part.preload())))
      .then(
        () => {
          ready = true;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      ));
  const Suspending = lazy(async () => {
    await preload();
    return { default: component! };
  });
  const Part = () => {
    const Component = ready && component ? component : Suspending;
    return <Component />;
  };
  return Object.assign(Part, { preload, preloadForHydration });
}
