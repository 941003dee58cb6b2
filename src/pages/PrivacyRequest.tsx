import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import { lazyPart } from '@/components/lazyPart';
import { PageMeta } from '@/components/PageMeta';
import { privacyRequestPage as copy, requestTypeMeanings } from '@/content/privacyRequest';
import { loadEventFired } from '@/utils/loadEvent';
import { PRIVACY_REQUEST_TYPES } from '@/forms/privacyRequest';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';
import * as styles from './PrivacyRequest.css';

/**
 * The form's code: its machine, the submission, IP-lookup and metadata services, the draft. Fetched after
 * the load event, so that the page's first load stays within DESIGN.md §4's budget: until then the form
 * is its prerendered HTML (what is typed in it stays), its submit button disabled.
 */
export const PrivacyRequestFormPart = lazyPart(
  () => loadEventFired().then(() => import('@/components/PrivacyRequestForm')),
  (module) => module.PrivacyRequestForm,
);

/**
 * `/privacy-request` (spec §2, §3, §4, §8): what each right means, and the privacy rights request form
 * (src/components/PrivacyRequestForm.tsx) in a `<Suspense>` boundary of its own, hydrated once its
 * chunk is in.
 */
export function PrivacyRequest() {
  return (
    <div className={section}>
      <PageMeta route="/privacy-request" />
      <div className={`${container} ${prose}`}>
        <h1 id="privacy-request-title" className={pageTitle}>
          {copy.title}
        </h1>
        <p className={lede}>{copy.intro}</p>
        <p>
          {copy.policyLinkBefore}
          <Link to="/privacy">{copy.policyLink}</Link>. {copy.optOutNow}
        </p>
        <h2 className={styles.typesTitle}>{copy.typesTitle}</h2>
        <dl className={styles.types}>
          {PRIVACY_REQUEST_TYPES.map((type) => (
            <div key={type}>
              <dt className={styles.typeName}>{type}</dt>
              <dd className={styles.typeMeaning}>{requestTypeMeanings[type]}</dd>
            </div>
          ))}
        </dl>
        <Suspense>
          <PrivacyRequestFormPart />
        </Suspense>
      </div>
    </div>
  );
}
