import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * A value only the browser knows (the visitor's GPC signal, today's year), kept out of prerendered HTML:
 * returns `prerendered` when rendering at build time and while hydrating, so that the first client render
 * matches the HTML, then `inBrowser()` (a re-render follows when it differs). A page rendered in the
 * browser from scratch gets `inBrowser()` at once.
 * @param inBrowser - reads the value; must return the same primitive for the same state
 * @param prerendered - what the prerendered HTML shows
 */
export function useAfterHydration<T>(inBrowser: () => T, prerendered: T): T {
  return useSyncExternalStore(noSubscription, inBrowser, () => prerendered);
}
