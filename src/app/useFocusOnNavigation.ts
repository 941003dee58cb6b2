import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * After a client-side navigation, focus moves to the new page's `<h1>` (or, without one, to
 * `<main>`), so that a screen-reader user hears where they arrived, as after a full page load. Not on the
 * first render (the browser handles a page load) and not when the address names a section (#hash), which
 * useScrollToHash scrolls to. A page rendered while `<main>` is still empty is focused once it is in.
 * The heading is made focusable by script only (`tabindex="-1"`), not in tab order.
 */
export function useFocusOnNavigation(): void {
  const { pathname, hash } = useLocation();
  const address = `${pathname}${hash}`;
  // The address focus was last settled for, starting with the one the page loaded at. Compared, not a
  // "first run" flag: StrictMode runs every effect twice on mount (https://react.dev/reference/react/StrictMode),
  // and a flag cleared by the first run let the second focus the heading and give it `tabindex` while its
  // Suspense boundary was still waiting to hydrate: a hydration mismatch on every page load.
  const settled = useRef(address);
  useEffect(() => {
    if (settled.current === address) return;
    settled.current = address;
    if (hash) return;
    const main = document.getElementById('main');
    if (!main) return;
    // A page whose chunk is still loading shows nothing in <main> yet: focus waits for it.
    if (moveFocusInto(main)) return;
    const observer = new MutationObserver(() => {
      if (moveFocusInto(main)) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [address, hash]);
}

/**
 * Focuses the page's `<h1>`, or `<main>` itself when the page has none.
 * @returns false, doing nothing, while `<main>` is still empty
 */
function moveFocusInto(main: HTMLElement): boolean {
  if (!main.firstElementChild) return false;
  const target = main.querySelector<HTMLElement>('h1') ?? main;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  return true;
}
