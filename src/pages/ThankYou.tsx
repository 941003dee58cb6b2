import { PageMeta } from '@/components/PageMeta';
import { Link } from 'react-router-dom';
import { thankYou } from '@/content/thankYou';
import { button } from '@/styles/button';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';
import * as styles from './ThankYou.css';

/** `/thank-you` (spec §2): 'Request received', three next steps, the rolling-basis note, Back to home. */
export function ThankYou() {
  return (
    <div className={section}>
      <PageMeta route="/thank-you" />
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle}>{thankYou.title}</h1>
        <p className={lede}>{thankYou.intro}</p>
        <ol className={styles.steps}>
          {thankYou.steps.map((step) => (
            <li key={step.title} className={styles.step}>
              <h2 className={styles.stepTitle}>{step.title}</h2>
              <p className={styles.stepBody}>{step.body}</p>
            </li>
          ))}
        </ol>
        <p>{thankYou.rollingNote}</p>
        <Link to="/" className={button({ tone: 'primary' })}>
          {thankYou.backHome}
        </Link>
      </div>
    </div>
  );
}
