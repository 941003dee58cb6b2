import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Issue #12: after a client-side navigation, focus moves to the new page's `<h1>` (or, without one, to
 * `<main>`), so that a screen-reader user hears where they arrived, as after a full page load. Not on the
 * first render (the browser handles a page load) and not when the address names a section (#hash), which
 * useScrollToHash scrolls to. The heading is made focusable by script only (`tabindex="-1"`), not in tab order.
 */
export function useFocusOnNavigation(): void {
  const { pathname, hash } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (hash) return;
    const main = document.getElementById('main');
    const target = main?.querySelector<HTMLElement>('h1') ?? main;
    if (!target) return;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }, [pathname, hash]);
}
