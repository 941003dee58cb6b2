import { useActorRef, useSelector } from '@xstate/react';
import { CohortForm } from '@/components/team/CohortForm';
import { CohortList } from '@/components/team/CohortList';
import * as styles from '@/components/team/Cohorts.css';
import * as fields from '@/components/FormFields.css';
import { useInspect } from '@/context/inspect';
import { TeamSessionContext } from '@/context/team';
import { teamCohortsMachine } from '#machines/teamCohortsMachine';
import { button } from '@/styles/button';
import { container, pageTitle, section } from '@/styles/layout.css';

/**
 * `/team/cohorts`: the cohorts (machines/teamCohortsMachine.ts), each with its start date and how full
 * it is, and the form to create one. A call answered 401 tells the session.
 */
export function CohortsPage() {
  const session = TeamSessionContext.useActorRef();
  const cohortsActor = useActorRef(teamCohortsMachine.provide({ actions: { endSession: () => session.send({ type: 'session.ended' }) } }), { inspect: useInspect() });
  const cohorts = useSelector(cohortsActor, (s) => s.context.cohorts);
  const loading = useSelector(cohortsActor, (s) => s.matches('loading'));
  const failed = useSelector(cohortsActor, (s) => s.matches('failed'));
  const adding = useSelector(cohortsActor, (s) => s.matches('adding'));
  const error = useSelector(cohortsActor, (s) => s.context.error);
  const fieldErrors = useSelector(cohortsActor, (s) => s.context.fieldErrors);
  const created = useSelector(cohortsActor, (s) => s.context.created);
  return (
    <div className={section}>
      <title>Cohorts · Sonde team</title>
      <div className={container}>
        <h1 className={pageTitle}>Cohorts</h1>
        <p role="status" className={fields.offScreen}>
          {loading ? 'Loading the cohorts…' : created > 0 ? `Cohort created. ${cohorts.length} cohorts.` : ''}
        </p>
        <div className={styles.layout}>
          <section aria-labelledby="cohort-list">
            <h2 id="cohort-list">Every cohort</h2>
            {loading && <p>Loading the cohorts…</p>}
            {failed && (
              <>
                <div role="alert" className={fields.alert}>
                  <p className={fields.alertTitle}>{error}</p>
                </div>
                <button type="button" className={button({ tone: 'primary' })} onClick={() => cohortsActor.send({ type: 'cohorts.retry' })}>
                  Try again
                </button>
              </>
            )}
            {!loading && !failed && <CohortList cohorts={cohorts} />}
          </section>
          <CohortForm adding={adding} errors={fieldErrors} created={created} onAdd={(cohort) => cohortsActor.send({ type: 'cohort.add', cohort })} />
        </div>
      </div>
    </div>
  );
}
