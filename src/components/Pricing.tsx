import { PRICE_PER_1000_QUERIES_USD, PRICING_EXAMPLES } from '@/config/site';
import { pricing } from '@/content/home';
import { loadEventFired } from '@/utils/loadEvent';
import { formatCount, formatUsd } from '@/utils/format';
import { HomeSection } from './HomeSection';
import { lazyPart } from './lazyPart';
import * as styles from './Pricing.css';

/**
 * The cost estimator's code (src/components/Estimator.tsx: its arithmetic, copy and hand-over), fetched
 * after the load event like the invite form's: until then it is its prerendered HTML, the 5M example of
 * spec §9, which reads the same; the first load of `/` stays within DESIGN.md §4's budget.
 */
export const EstimatorPart = lazyPart(
  () => loadEventFired().then(() => import('./Estimator')),
  (module) => module.Estimator,
);

/** Home section 3, `#pricing` (spec §2, §9): the beta price, the two worked examples and the cost estimator. */
export function Pricing() {
  return (
    <HomeSection id="pricing" titleId="pricing-title" title={pricing.title} intro={pricing.intro}>
      <div className={styles.layout}>
        <div className={styles.priceCard}>
          <p className={styles.price}>{formatUsd(PRICE_PER_1000_QUERIES_USD)}</p>
          <p className={styles.unit}>{pricing.unit}, in beta</p>
          <ul className={styles.includes}>
            {pricing.includes.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
        <table className={styles.examples}>
          <caption className={styles.caption}>{pricing.examplesTitle}</caption>
          <thead>
            <tr>
              <th scope="col" className={styles.cell}>
                Queries per month
              </th>
              <th scope="col" className={styles.cell}>
                Approximate monthly cost
              </th>
            </tr>
          </thead>
          <tbody>
            {PRICING_EXAMPLES.map(({ queriesPerMonth, monthlyUsd }) => (
              <tr key={queriesPerMonth}>
                <td className={styles.cell}>{formatCount(queriesPerMonth)} queries</td>
                <td className={styles.cell}>≈ {formatUsd(monthlyUsd)} / month</td>
              </tr>
            ))}
          </tbody>
        </table>
        <EstimatorPart />
      </div>
    </HomeSection>
  );
}
