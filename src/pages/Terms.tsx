import { LegalPage } from '@/components/LegalPage';
import { terms, termsUpdated } from '@/content/terms';

/** `/terms` (spec §2): terms of service of the invite-only beta, 12 sections. */
export function Terms() {
  return <LegalPage route="/terms" title="Terms of Service" updated={termsUpdated} sections={terms} />;
}
