import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import type { DecisionDraft, DecisionTarget } from '#machines/teamDecisions';
import type { Cohort } from '#shared/team';
import { button } from '@/styles/button';
import * as fields from '@/components/FormFields.css';
import { Field } from './Field';
import { ReasonDecision } from './ReasonDecision';
import * as styles from './Decision.css';
import type { DecisionActor } from './DecisionFlight';
import { DECISION_LABELS } from './labels';

/** A cohort as its option says it: `Cohort 1 (12 of 25)`, or `(12, no limit)`. */
const cohortOption = (cohort: Cohort) => `${cohort.name} (${cohort.capacity === null ? `${cohort.accepted}, no limit` : `${cohort.accepted} of ${cohort.capacity}`})`;

/** One decision's button, enabled when the review's chart allows it on every target (`snapshot.can`). */
function DecisionButton({ actor, targets, draft, tone = 'secondary' }: { actor: DecisionActor; targets: DecisionTarget[]; draft: DecisionDraft | null; tone?: 'primary' | 'secondary' }) {
  const start = draft && { type: 'decision.start' as const, targets, draft, at: new Date().toISOString() };
  const allowed = useSelector(actor, (s) => start !== null && s.can(start));
  if (!draft) return null;
  return (
    <button type="button" className={button({ tone })} disabled={!allowed} onClick={() => start && actor.send(start)}>
      {DECISION_LABELS[draft.decision]}
    </button>
  );
}

/**
 * The decisions on invite requests (one, or a selection): accept into a cohort, waitlist, decline with
 * the reason told to the applicant, spam, reopen. Each button is enabled by the review's chart from each
 * request's stored state; each shows the mails it sends before it is confirmed (./DecisionFlight.tsx).
 * What is typed stays while a decision is in flight, and after it failed.
 */
export function InviteDecisions({ actor, targets, cohorts }: { actor: DecisionActor; targets: DecisionTarget[]; cohorts: readonly Cohort[] }) {
  const id = useId();
  const [cohortName, setCohortName] = useState('');
  const [reason, setReason] = useState('');
  const cohort = cohorts.find((candidate) => candidate.name === cohortName);
  const accept: DecisionDraft | null = cohort ? { decision: 'accept', cohort } : null;
  return (
    <div className={styles.panel}>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>Accept into a cohort</legend>
        <div className={styles.buttons}>
          <Field htmlFor={`${id}-cohort`} label="Cohort">
            <select id={`${id}-cohort`} className={fields.input} value={cohortName} onChange={(event) => setCohortName(event.target.value)}>
              <option value="">Choose a cohort</option>
              {cohorts.map((choice) => (
                <option key={choice.id} value={choice.name}>
                  {cohortOption(choice)}
                </option>
              ))}
            </select>
          </Field>
          {accept ? (
            <DecisionButton actor={actor} targets={targets} draft={accept} tone="primary" />
          ) : (
            <button type="button" className={button({ tone: 'primary' })} disabled>
              {DECISION_LABELS.accept}
            </button>
          )}
        </div>
      </fieldset>
      <ReasonDecision legend="Decline" id={`${id}-reason`} label="Reason told to the applicant (optional)" reason={reason} onReason={setReason}>
        <DecisionButton actor={actor} targets={targets} draft={{ decision: 'decline', reason }} />
      </ReasonDecision>
      <div className={styles.buttons}>
        <DecisionButton actor={actor} targets={targets} draft={{ decision: 'waitlist' }} />
        <DecisionButton actor={actor} targets={targets} draft={{ decision: 'spam' }} />
        <DecisionButton actor={actor} targets={targets} draft={{ decision: 'reopen' }} />
      </div>
    </div>
  );
}
