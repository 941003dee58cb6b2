import { Suspense, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { lazyPart } from '@/components/lazyPart';
import { PageMeta } from '@/components/PageMeta';
import { verifyPage as copy } from '@/content/verifyPrivacyRequest';
import { loadEventFired } from '@/utils/loadEvent';
import { isVerificationFragment, takeStrippedFragment, tokenOfFragment } from '@/utils/verificationFragment';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';
import { verificationTokenOf } from '#shared/verification';

/**
 * The verification's code: its machine, the calls, the states' views. Fetched after the load event, so
 * that the page's first load stays within DESIGN.md §4's budget: until then the page is its prerendered
 * HTML, "Checking your link…".
 */
export const PrivacyVerificationPart = lazyPart(
  () => loadEventFired().then(() => import('@/components/PrivacyVerification')),
  (module) => module.PrivacyVerification,
);

/**
 * `/privacy-request/verify` (11 CCR §7060): the page a privacy request's verification link
 * opens, `#token=…` in its fragment. As the page hydrates, before the verification's code is even
 * fetched, the token the entry (src/main.tsx) took out of the address bar, before analytics could read
 * it, goes into the history entry's state, which a reload keeps; a link cut short leaves too. Then the verification (src/components/PrivacyVerification.tsx) reads it there. Each link is a
 * verification of its own: one pasted into this tab (a fragment change, which reloads nothing) starts
 * afresh. Without JavaScript, a `<noscript>` says how to confirm by reply.
 */
export function VerifyPrivacyRequest() {
  const { pathname, search, hash, state, key } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    // src/main.tsx has already taken the fragment out of the address bar (src/utils/verificationFragment.ts);
    // a fragment the router still holds (a test's memory router) is taken here
    const stripped = takeStrippedFragment();
    if (stripped === null && !isVerificationFragment(hash)) return;
    void navigate({ pathname, search }, { replace: true, state: { verificationToken: stripped ? stripped.token : tokenOfFragment(hash) } });
  }, [navigate, pathname, search, hash, key]);
  const link = verificationTokenOf({ hash, state: state as unknown }) ?? hash;
  return (
    <div className={section}>
      <PageMeta route="/privacy-request/verify" />
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle}>{copy.title}</h1>
        <p className={lede}>{copy.intro}</p>
        <noscript>
          <p>{copy.noScript}</p>
        </noscript>
        <Suspense fallback={<p>{copy.checking}</p>}>
          <PrivacyVerificationPart key={link} />
        </Suspense>
      </div>
    </div>
  );
}
