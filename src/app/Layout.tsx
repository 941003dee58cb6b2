import { Suspense } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Outlet, useLocation } from 'react-router-dom';
import { deferHydration } from '@/components/deferHydration';
import { Footer } from '@/components/Footer';
import { Header } from '@/components/Header';
import { OptOutToast } from '@/components/OptOutToast';
import { PageError } from '@/pages/PageError';
import * as styles from './Layout.css';
import { useFocusOnNavigation } from './useFocusOnNavigation';
import { useScrollToHash } from './useScrollToHash';

// Issue #13: the header and the footer each hydrate in a task of their own, as the page does, so that
// hydrating the layout with the app-wide machines is no longer one long task.
const HeaderSection = deferHydration(Header);
const FooterSection = deferHydration(Footer);

/**
 * Shared layout of every route (spec §2): skip link, sticky header, main landmark, footer. A page that
 * throws while rendering shows PageError inside the layout, until the visitor goes to another address
 * (issue #12); after each navigation focus moves to the new page's heading.
 */
export function Layout() {
  useScrollToHash();
  useFocusOnNavigation();
  const { pathname } = useLocation();
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        Skip to content
      </a>
      <HeaderSection />
      <main id="main" tabIndex={-1} className={styles.main}>
        <ErrorBoundary
          FallbackComponent={PageError}
          resetKeys={[pathname]}
          onError={(error) => console.error('[page] could not be shown:', error)}
        >
          {/* A page whose chunk is not in yet (issue #13) suspends here: <main> is empty until it is in,
              and focus moves to its heading then (useFocusOnNavigation). One boundary per path: under
              preact/compat a boundary still waiting for the page left behind (the visitor went back
              before its chunk came in) would never show the page gone back to. */}
          <Suspense key={pathname} fallback={null}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <FooterSection />
      <OptOutToast />
    </div>
  );
}
