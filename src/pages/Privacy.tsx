import { LegalPage } from '@/components/LegalPage';
import { privacyPolicy, privacyPolicyUpdated } from '@/content/privacyPolicy';

/** `/privacy` (spec §2, §9): the privacy policy, sections 1 to 10, linking to the privacy request form. */
export function Privacy() {
  return <LegalPage route="/privacy" title="Privacy Policy" updated={privacyPolicyUpdated} sections={privacyPolicy} />;
}
