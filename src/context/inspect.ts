import { createContext, useContext } from 'react';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { INSPECT_BY_DEFAULT } from '@/config/site';

/** An XState inspection observer, given to every actor the app creates. */
export type Inspect = NonNullable<ActorOptions<AnyActorLogic>['inspect']>;

/** The inspection observer of this app, if any: the Stately inspector in dev, a recorder in tests. */
export const InspectContext = createContext<Inspect | undefined>(undefined);

/** The observer page-local machines pass to `useActorRef(machine, { inspect })`. */
export function useInspect(): Inspect | undefined {
  return useContext(InspectContext);
}

/**
 * Opens the Stately inspector (`@statelyai/inspect`, browser inspector) when the dev server runs and
 * the address has `?inspect` or `VITE_INSPECT=true` is set. The package is imported dynamically and
 * only then: a production build holds none of it.
 * @returns the inspector's observer, or undefined when it is not wanted or not allowed
 */
export async function loadStatelyInspector(): Promise<Inspect | undefined> {
  // Dev server only, never under Vitest. Written against import.meta.env here, in the function that
  // holds the import: a build replaces it with `false` and drops the branch with the inspector chunk
  // (tests/build/bundle.test.ts). Read from another module, the constant was not folded.
  if (!import.meta.env.DEV || import.meta.env.MODE === 'test') return undefined;
  if (!INSPECT_BY_DEFAULT && !new URLSearchParams(window.location.search).has('inspect')) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}
