import { Link } from 'react-router-dom';
import { ConsentContext, OptOutToastContext } from '@/context/actors';
import { useAfterHydration } from '@/hooks/useAfterHydration';
import { BUILD_YEAR, PRODUCT_NAME } from '@/config/site';
import { button } from '@/styles/button';
import { container } from '@/styles/layout.css';
import * as styles from './Footer.css';

/**
 * Site footer (spec §2): tagline, Product, Company (with the opt-out button of spec §4), Get started,
 * copyright year; and, when the browser sends GPC, the notice that the signal was honoured.
 * What only the browser knows is in three small components of its own ({@link OptOutButton},
 * {@link GpcNotice}, {@link CopyrightYear}): the render that follows hydration, when those values change,
 * is a synchronous one, so it takes in only them, not the footer's columns and links.
 */
export function Footer() {
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
                <OptOutButton />
              </li>
            </ul>
            <GpcNotice />
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
          © <CopyrightYear /> {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

/**
 * The opt-out button of spec §4: opts the visitor out and shows the confirmation toast. Disabled until the
 * footer is hydrated (it hydrates in a task of its own, after the page), as the forms' submit buttons are:
 * before then a click would do nothing, and silently. Without JavaScript it stays disabled, and there is
 * nothing to opt out of: analytics needs JavaScript.
 */
function OptOutButton() {
  const consent = ConsentContext.useActorRef();
  const toast = OptOutToastContext.useActorRef();
  const hydrated = useAfterHydration(() => true, false);
  const optOut = () => {
    consent.send({ type: 'consent.optOut' });
    toast.send({ type: 'toast.show' });
  };
  return (
    <button type="button" className={button({ tone: 'quiet' })} onClick={optOut} disabled={!hydrated}>
      Do Not Sell or Share My Personal Information
    </button>
  );
}

/**
 * CCPA regulations §7025(c)(6): shows that the opt-out preference signal was processed, when the browser
 * sends GPC. The prerendered page cannot know the visitor's signal: the notice appears once the browser has
 * taken over.
 */
function GpcNotice() {
  const gpc = ConsentContext.useSelector((s) => s.context.gpc);
  const gpcHonoured = useAfterHydration(() => gpc, false);
  return gpcHonoured ? <p className={styles.gpcNotice}>✓ Opt-out preference signal honored (Global Privacy Control)</p> : null;
}

/** The copyright's year: the build's ({@link BUILD_YEAR}) in the prerendered page, then the visitor's. */
function CopyrightYear() {
  return useAfterHydration(() => new Date().getFullYear(), BUILD_YEAR);
}
