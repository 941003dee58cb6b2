import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '@/config/site';
import { button } from '@/styles/button.css';
import { container } from '@/styles/layout.css';
import * as styles from './Footer.css';

/** Site footer (spec §2): tagline, Product, Company (with the opt-out button), Get started, copyright year. */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <div className={container}>
        <div className={styles.columns}>
          <div>
            <p className={styles.brand}>{PRODUCT_NAME}</p>
            <p className={styles.tagline}>Search infra for agentic AI.</p>
          </div>
          <nav aria-labelledby="footer-product">
            <h2 id="footer-product" className={styles.columnTitle}>
              Product
            </h2>
            <ul className={styles.list}>
              <li>
                <Link to="/#pricing" className={styles.link}>
                  Pricing
                </Link>
              </li>
              <li>
                <Link to="/#faq" className={styles.link}>
                  FAQ
                </Link>
              </li>
            </ul>
          </nav>
          <nav aria-labelledby="footer-company">
            <h2 id="footer-company" className={styles.columnTitle}>
              Company
            </h2>
            <ul className={styles.list}>
              <li>
                <Link to="/privacy" className={styles.link}>
                  Privacy Policy
                </Link>
              </li>
              <li>
                <Link to="/terms" className={styles.link}>
                  Terms of Service
                </Link>
              </li>
              <li>
                <button type="button" className={button({ tone: 'quiet' })}>
                  Do Not Sell or Share My Personal Information
                </button>
              </li>
            </ul>
          </nav>
          <nav aria-labelledby="footer-get-started">
            <h2 id="footer-get-started" className={styles.columnTitle}>
              Get started
            </h2>
            <ul className={styles.list}>
              <li>
                <Link to="/#invite" className={styles.link}>
                  Request invite
                </Link>
              </li>
            </ul>
          </nav>
        </div>
        <p className={styles.copyright}>
          © {year} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
