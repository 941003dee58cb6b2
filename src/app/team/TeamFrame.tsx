import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useMatch } from 'react-router-dom';
import { SignIn } from '@/components/team/SignIn';
import { CONSOLE_NAME, frameCopy as copy } from '@/content/team';
import { TeamSessionContext } from '@/context/team';
import { button } from '@/styles/button';
import { TEAM_PATHS } from '#shared/team';
import * as styles from './TeamFrame.css';

/**
 * The console's frame: a skip link, a header (the console's name; once signed in, the Queue and Cohorts
 * links, the member and "Sign out"), and `<main>` with the page. Every page but the enrollment page (its
 * link is the way in) shows only once signed in, the sign-in screen until then. One frame for every page,
 * so that it stays as the enrollment page hands over to the queue.
 * Nothing here links to the public site: a client-side navigation there would bring the site's app,
 * and PostHog with it, into the console's document.
 */
export function TeamFrame() {
  const gated = useMatch(TEAM_PATHS.enroll) === null;
  const session = TeamSessionContext.useActorRef();
  const signedIn = TeamSessionContext.useSelector((s) => s.matches('signedIn'));
  const memberName = TeamSessionContext.useSelector((s) => s.context.member?.name ?? s.context.member?.email ?? null);
  const signingOut = TeamSessionContext.useSelector((s) => s.matches({ signedIn: 'signingOut' }));
  const canSignOut = TeamSessionContext.useSelector((s) => s.can({ type: 'session.signOut' }));
  const signOutError = TeamSessionContext.useSelector((s) => (s.matches('signedIn') ? s.context.message : null));
  const main = useRef<HTMLElement>(null);
  const wasSignedIn = useRef<boolean | null>(null);
  const checking = TeamSessionContext.useSelector((s) => s.matches('checking'));
  useEffect(() => {
    // Signing in, out, or a session that ended replaces the screen, and the button that had the focus with
    // it: the focus goes to the new screen's <main>, not back to the top of the document. Not on the first
    // answer of the session's check, as the page opens, where the browser's focus stays.
    if (checking) return;
    if (wasSignedIn.current !== null && wasSignedIn.current !== signedIn) main.current?.focus();
    wasSignedIn.current = signedIn;
  }, [checking, signedIn]);
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        {copy.skipLink}
      </a>
      <header className={styles.header}>
        <span className={styles.brand}>{CONSOLE_NAME}</span>
        {signedIn && (
          <>
            <nav aria-label={copy.nav}>
              <ul className={styles.navList}>
                <li>
                  <NavLink to={TEAM_PATHS.queue} end className={styles.navLink}>
                    {copy.queue}
                  </NavLink>
                </li>
                <li>
                  <NavLink to={TEAM_PATHS.cohorts} className={styles.navLink}>
                    {copy.cohorts}
                  </NavLink>
                </li>
              </ul>
            </nav>
            <div className={styles.member}>
              <span>
                {copy.signedInAs} <span className={styles.memberName}>{memberName}</span>
              </span>
              <button
                type="button"
                className={button({ tone: 'secondary' })}
                aria-disabled={!canSignOut}
                onClick={() => {
                  if (canSignOut) session.send({ type: 'session.signOut' });
                }}
              >
                {signingOut ? copy.signingOut : copy.signOut}
              </button>
              <p role="status" className={styles.signOutStatus}>
                {signOutError}
              </p>
            </div>
          </>
        )}
      </header>
      <main id="main" ref={main} tabIndex={-1} className={styles.main}>
        {!gated || signedIn ? <Outlet /> : <SignIn />}
      </main>
    </div>
  );
}
