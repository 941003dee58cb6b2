import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { prefersReducedMotion } from '@/utils/motion';
import { SCROLL_TO_ANCHOR_DELAY_MS } from '@/config/site';

/**
 * Spec §2: when the address carries a hash, scroll to that section after
 * {@link SCROLL_TO_ANCHOR_DELAY_MS} (100 ms), smoothly unless the visitor prefers reduced motion.
 * Also on arrival from another route, since the target only exists once the new page has rendered: when
 * the page's chunk is still loading after those 100 ms, the scroll waits for the section to
 * appear in `<main>`, and happens as soon as it does. An address naming no section scrolls nowhere.
 * A navigation without a hash starts at the top of the new page.
 *
 * The page load is the browser's to place: it has scrolled to the section of the prerendered page, or to
 * where a reload or a history traversal restores it, and a visitor may have scrolled on while the app was
 * loading; scrolling when the app hydrates would move the page under their finger (a click aimed at the
 * footer landed on whatever took its place). So on the page load nothing scrolls to the top, and the
 * section is scrolled to only while the page is still at the top (a page the browser could not place:
 * rendered afresh, not prerendered). An address rewritten in place (a
 * REPLACE navigation that stays on the page, as the cost estimator writes its `?queries=` and
 * `#pricing` while the visitor types) is no navigation to a section: nothing scrolls.
 */
export function useScrollToHash(): void {
  const location = useLocation();
  const { pathname, hash, key } = location;
  const navigationType = useNavigationType();
  const lastPathname = useRef(pathname);
  // The location the page loaded at: the router gives a new object for every navigation, including a
  // history traversal back to this entry. Compared, not a "first run" flag, which StrictMode's second
  // run of every effect on mount would already find cleared.
  const loadedAt = useRef(location);
  useEffect(() => {
    const samePage = lastPathname.current === pathname;
    lastPathname.current = pathname;
    if (samePage && navigationType === 'REPLACE') return;
    const pageLoad = loadedAt.current === location;
    if (!hash) {
      if (!pageLoad) window.scrollTo({ top: 0 });
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    const scrollTo = (target: HTMLElement) => {
      target.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    };
    let observer: MutationObserver | undefined;
    const timer = window.setTimeout(() => {
      if (pageLoad && window.scrollY !== 0) return;
      const target = document.getElementById(id);
      if (target) {
        scrollTo(target);
        return;
      }
      const main = document.getElementById('main');
      // the page is still loading while <main> is empty; a loaded page without the section has no target
      if (!main || main.firstElementChild) return;
      observer = new MutationObserver(() => {
        if (!main.firstElementChild) return;
        observer?.disconnect();
        const arrived = document.getElementById(id);
        if (arrived) scrollTo(arrived);
      });
      observer.observe(main, { childList: true });
    }, SCROLL_TO_ANCHOR_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      observer?.disconnect();
    };
    // `key` changes on every navigation, so pressing the same hash link twice scrolls again.
  }, [location, pathname, hash, key, navigationType]);
}
