import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '@/config/site';
import { button } from '@/styles/button';
import { container } from '@/styles/layout.css';
import * as styles from './Header.css';

/** Sticky site header (spec §2): product name to `/`, Pricing and FAQ links, Request invite button. */
export function Header() {
  return (
    <header className={styles.header}>
      <div className={`${container} ${styles.inner}`}>
        <Link to="/" className={styles.brand}>
          {PRODUCT_NAME}
        </Link>
        <nav aria-label="Main">
          <ul className={styles.navList}>
            <li>
              <Link to="/#pricing" className={styles.navLink}>
                Pricing
              </Link>
            </li>
            <li>
              <Link to="/#faq" className={styles.navLink}>
                FAQ
              </Link>
            </li>
          </ul>
        </nav>
        <Link to="/#invite" className={`${button({ tone: 'primary' })} ${styles.cta}`}>
          Request invite
        </Link>
      </div>
    </header>
  );
}
