import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from '@/components/Footer';
import { Header } from '@/components/Header';
import { OptOutToast } from '@/components/OptOutToast';
import * as styles from './Layout.css';
import { PageErrorBoundary } from './PageErrorBoundary';
import { useFocusOnNavigation } from './useFocusOnNavigation';
import { usePageViews } from './usePageViews';
import { useScrollToHash } from './useScrollToHash';

/**
 * Shared layout of every route (spec §2): skip link, sticky header, main landmark, footer. A page that
 * throws while rendering shows PageError inside the layout, until the visitor goes to another address
 * (spec §8); after each navigation focus moves to the new page's heading, and its page view is counted
 * (spec §7.3).
 */
export function Layout() {
  useScrollToHash();
  useFocusOnNavigation();
  usePageViews();
  const { key } = useLocation();
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className={styles.main}>
        {/* A page whose chunk is not in yet suspends here. React Router navigates in a transition, so the
            page being left (or the error page) stays on screen until the next one can render; the boundary
            is outside the error boundary, so that clearing an error never mounts a new, empty one. */}
        <Suspense fallback={null}>
          <PageErrorBoundary locationKey={key}>
            <Outlet />
          </PageErrorBoundary>
        </Suspense>
      </main>
      <Footer />
      <OptOutToast />
    </div>
  );
}
