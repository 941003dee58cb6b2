import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { SCROLL_TO_ANCHOR_DELAY_MS } from '@/config/site';

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Spec §2: when the address carries a hash, scroll to that section after
 * {@link SCROLL_TO_ANCHOR_DELAY_MS} (100 ms), smoothly unless the visitor prefers reduced motion.
 * Also on arrival from another route, since the target only exists once the new page has rendered.
 * A navigation without a hash starts at the top of the new page.
 */
export function useScrollToHash(): void {
  const { pathname, hash, key } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0 });
      return;
    }
    const timer = window.setTimeout(() => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      target?.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    }, SCROLL_TO_ANCHOR_DELAY_MS);
    return () => window.clearTimeout(timer);
    // `key` changes on every navigation, so pressing the same hash link twice scrolls again.
  }, [pathname, hash, key]);
}
