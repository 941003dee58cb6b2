import { Link } from 'react-router-dom';
import { P50_LATENCY_CLAIM_MS, PRICE_PER_1000_QUERIES_USD } from '@/config/site';
import { hero } from '@/content/home';
import { button } from '@/styles/button';
import { container, lede } from '@/styles/layout.css';
import { formatUsd } from '@/utils/format';
import * as styles from './Hero.css';

/** Home section 1 (spec §2): headline, price, p50 latency, coverage, beta note, two scroll buttons. */
export function Hero() {
  return (
    <section className={styles.hero} aria-labelledby="hero-title">
      <div className={container}>
        <p className={styles.eyebrow}>{hero.eyebrow}</p>
        <h1 id="hero-title" className={styles.headline}>
          {hero.headline}
        </h1>
        <p className={lede}>{hero.lede}</p>
        <ul className={styles.facts} aria-label="Key figures">
          <li className={styles.fact}>
            <span className={styles.factFigure}>{formatUsd(PRICE_PER_1000_QUERIES_USD)}</span> per 1,000 queries
          </li>
          <li className={styles.fact}>
            <span className={styles.factFigure}>&lt;{P50_LATENCY_CLAIM_MS} ms</span> p50 latency
          </li>
          <li className={styles.fact}>{hero.coverage}</li>
        </ul>
        <div className={styles.actions}>
          <Link to="/#invite" className={button({ tone: 'primary' })}>
            {hero.primaryCta}
          </Link>
          <Link to="/#pricing" className={button({ tone: 'secondary' })}>
            {hero.secondaryCta}
          </Link>
        </div>
        <p className={styles.betaNote}>{hero.betaNote}</p>
      </div>
    </section>
  );
}
