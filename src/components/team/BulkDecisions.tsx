import type { DecisionTarget } from '#machines/teamDecisions';
import type { Cohort } from '#shared/team';
import { button } from '@/styles/button';
import { DecisionFlight, type DecisionActor } from './DecisionFlight';
import { counted } from './format';
import { InviteDecisions } from './InviteDecisions';
import * as styles from './Queue.css';

/**
 * The bar under the queue while invite requests are selected: how many, the decisions the review's
 * chart allows on every one of them, and the decision in flight. Shown also while a decision taken on a
 * selection is reported (the selection is emptied as the queue reloads).
 */
export function BulkDecisions({ actor, targets, cohorts, onClear }: { actor: DecisionActor; targets: DecisionTarget[]; cohorts: readonly Cohort[]; onClear: () => void }) {
  return (
    <section className={styles.bulk} aria-labelledby="bulk-title">
      <h2 id="bulk-title" className={styles.caption}>
        {targets.length > 0 ? `${counted(targets.length, 'invite request')} selected` : 'Decision'}
      </h2>
      {targets.length > 0 && (
        <>
          <InviteDecisions actor={actor} targets={targets} cohorts={cohorts} />
          <div>
            <button type="button" className={button({ tone: 'quiet' })} onClick={onClear}>
              Clear the selection
            </button>
          </div>
        </>
      )}
      <DecisionFlight actor={actor} />
    </section>
  );
}
