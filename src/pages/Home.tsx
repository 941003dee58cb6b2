import { PageMeta } from '@/components/PageMeta';
import { deferHydration } from '@/components/deferHydration';
import { Faq } from '@/components/Faq';
import { FeatureCard, featureGrid } from '@/components/FeatureCard';
import { Hero } from '@/components/Hero';
import { InviteForm } from '@/components/InviteForm';
import { Pricing } from '@/components/Pricing';
import { features, inviteSection } from '@/content/home';
import { container, lede, section, sectionAlt, sectionTitle } from '@/styles/layout.css';

// Issue #13: the longest page hydrates one section per task (the hero's first Intl formatter alone takes
// about 60 ms at Lighthouse's 4x CPU slowdown); the prerendered HTML shows every section meanwhile.
const HeroSection = deferHydration(Hero);
const FeaturesSection = deferHydration(Features);
const PricingSection = deferHydration(Pricing);
const FaqSection = deferHydration(Faq);
const InviteSection = deferHydration(Invite);

/** `/` (spec §2): hero, feature cards, pricing, FAQ, invite request. */
export function Home() {
  return (
    <>
      <PageMeta route="/" />
      <HeroSection />
      <FeaturesSection />
      <PricingSection />
      <FaqSection />
      <InviteSection />
    </>
  );
}

function Features() {
  return (
    <section className={sectionAlt} aria-labelledby="features-title">
      <div className={container}>
        <h2 id="features-title" className={sectionTitle}>
          Search that keeps up with your agents
        </h2>
        <ul className={featureGrid}>
          {features.map((feature) => (
            <li key={feature.id}>
              <FeatureCard feature={feature} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Invite() {
  return (
    <section id="invite" className={section} aria-labelledby="invite-title">
      <div className={container}>
        <h2 id="invite-title" className={sectionTitle}>
          {inviteSection.title}
        </h2>
        <p className={lede}>{inviteSection.intro}</p>
        <InviteForm />
      </div>
    </section>
  );
}
