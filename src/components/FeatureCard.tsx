import type { Feature } from '@/content/home';
import * as styles from './FeatureCard.css';

export { grid as featureGrid } from './FeatureCard.css';

/** One of the eight feature cards of spec §2. */
export function FeatureCard({ feature }: { feature: Feature }) {
  return (
    <article className={styles.card}>
      <h3 className={styles.title}>{feature.title}</h3>
      <p className={styles.body}>{feature.description}</p>
    </article>
  );
}
