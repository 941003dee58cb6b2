import { preloadRoute } from './routes';

/** The events that show a visitor is about to follow a link: a pointer over it, a touch, keyboard focus. */
const INTENT_EVENTS = ['pointerover', 'touchstart', 'focusin'] as const;

/**
 * Fetches the chunk of the page a link of this site leads to as soon as the visitor shows
 * the intent to follow it, so that the click usually finds the page ready: a page whose chunk is not in
 * yet keeps the page being left on screen (the router's transition) until it is. A chunk that cannot be fetched is fetched again by the navigation itself, which shows the error.
 * @param target - where the events are listened to (capture phase)
 * @returns stops listening
 */
export function prefetchPagesOnIntent(target: Document = document): () => void {
  const onIntent = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    preloadRoute(link.pathname).catch(() => {});
  };
  for (const type of INTENT_EVENTS) target.addEventListener(type, onIntent, { capture: true, passive: true });
  return () => {
    for (const type of INTENT_EVENTS) target.removeEventListener(type, onIntent, { capture: true });
  };
}
