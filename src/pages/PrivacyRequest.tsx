import { PRODUCT_NAME } from '@/config/site';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';

/** `/privacy-request` (spec §2, §3): privacy rights request (CCPA/CPRA). */
export function PrivacyRequest() {
  return (
    <div className={section}>
      <title>{`Privacy rights request — ${PRODUCT_NAME}`}</title>
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle}>Privacy rights request</h1>
        <p className={lede}>Use this form to exercise your rights under the CCPA/CPRA.</p>
      </div>
    </div>
  );
}
