import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { ConsentContext } from '@/context/actors';
import { PAGE_VIEW } from '@/services/analytics';

/**
 * Spec §7.3, page view capture: after each client-side route change (a new path; a `#section` or a query
 * alone is the same page), the page view goes to the consent machine, which sends it only while tracking
 * is allowed. Not on the first render: the page loaded is PostHog's first page view, sent once the SDK is
 * in (src/services/posthogSession.ts). Runs after the new page's effects, so its title is in place.
 */
export function usePageViews(): void {
  const { pathname } = useLocation();
  const consent = ConsentContext.useActorRef();
  // The path last counted, starting with the one the page loaded at: compared, not a "first run" flag,
  // since StrictMode runs every effect twice on mount (as in useFocusOnNavigation).
  const counted = useRef(pathname);
  useEffect(() => {
    if (counted.current === pathname) return;
    counted.current = pathname;
    consent.send({ type: 'analytics.capture', ...PAGE_VIEW });
  }, [pathname, consent]);
}
