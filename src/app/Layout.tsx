import { Outlet } from 'react-router-dom';
import { Footer } from '@/components/Footer';
import { Header } from '@/components/Header';
import { OptOutToast } from '@/components/OptOutToast';
import * as styles from './Layout.css';
import { useScrollToHash } from './useScrollToHash';

/** Shared layout of every route (spec §2): skip link, sticky header, main landmark, footer. */
export function Layout() {
  useScrollToHash();
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className={styles.main}>
        <Outlet />
      </main>
      <Footer />
      <OptOutToast />
    </div>
  );
}
