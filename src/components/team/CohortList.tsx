import type { Cohort } from '#shared/team';
import * as styles from './Cohorts.css';
import { dayOf } from './format';

/** How full a cohort is, in words: `12 of 25`, or `12 accepted, no limit`. */
function fullness(cohort: Cohort): string {
  return cohort.capacity === null ? `${cohort.accepted} accepted, no limit` : `${cohort.accepted} of ${cohort.capacity}`;
}

/** The cohorts by start date, each with how full it is: in words, and a meter where it has a capacity. */
export function CohortList({ cohorts }: { cohorts: readonly Cohort[] }) {
  if (cohorts.length === 0) return <p>No cohort yet: create the first one.</p>;
  return (
    <ul className={styles.list} aria-label="Cohorts">
      {cohorts.map((cohort) => (
        <li key={cohort.id} className={styles.item}>
          <h3 className={styles.name}>{cohort.name}</h3>
          <span>
            Starts <time dateTime={cohort.startsOn}>{dayOf(`${cohort.startsOn}T12:00:00Z`)}</time>
          </span>
          <span>{fullness(cohort)}</span>
          {cohort.capacity !== null && (
            <meter className={styles.meter} min={0} max={cohort.capacity} value={cohort.accepted} aria-label={`${cohort.name}: ${fullness(cohort)}`} />
          )}
        </li>
      ))}
    </ul>
  );
}
