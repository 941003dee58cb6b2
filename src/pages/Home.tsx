import { Suspense } from 'react';
import { PageMeta } from '@/components/PageMeta';
import { Faq } from '@/components/Faq';
import { FeatureCard, featureGrid } from '@/components/FeatureCard';
import { Hero } from '@/components/Hero';
import { HomeSection } from '@/components/HomeSection';
import { lazyPart } from '@/components/lazyPart';
import { Pricing } from '@/components/Pricing';
import { features, inviteSection } from '@/content/home';
import { loadEventFired } from '@/utils/loadEvent';

/**
 * The invite form's code: its machine, the submission, IP-lookup and metadata services, the draft. Below
 * the fold, so it is fetched after the load event: until then the form is its prerendered HTML, its
 * submit button disabled (spec §3's form; the first load of `/` stays within DESIGN.md §4's budget).
 */
export const InviteFormPart = lazyPart(
  () => loadEventFired().then(() => import('@/components/InviteForm')),
  (module) => module.InviteForm,
);

/** The pricing section's estimator, a part of this page too (src/app/routes.tsx preloads it with the page). */
export { EstimatorPart } from '@/components/Pricing';

/**
 * `/` (spec §2): hero, feature cards, pricing, FAQ, invite request. The longest page: each section below
 * the hero is a `<Suspense>` boundary, in the prerendered HTML as in the browser, so React hydrates it on
 * its own after the rest of the page (selective hydration,
 * https://react.dev/reference/react/Suspense), and the prerendered section stays on screen meanwhile.
 */
export function Home() {
  return (
    <>
      <PageMeta route="/" />
      <Hero />
      <Suspense>
        <Features />
      </Suspense>
      <Suspense>
        <Pricing />
      </Suspense>
      <Suspense>
        <Faq />
      </Suspense>
      <Suspense>
        <Invite />
      </Suspense>
    </>
  );
}

function Features() {
  return (
    <HomeSection titleId="features-title" alt title="Search that keeps up with your agents">
      <ul className={featureGrid}>
        {features.map((feature) => (
          <li key={feature.id}>
            <FeatureCard feature={feature} />
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}

function Invite() {
  return (
    <HomeSection id="invite" titleId="invite-title" title={inviteSection.title} intro={inviteSection.intro}>
      <InviteFormPart />
    </HomeSection>
  );
}
