import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { TEXT_LIMITS } from '#shared/submission';
import type { DecisionDraft, DecisionTarget } from '#machines/teamDecisions';
import type { PrivacyOutcome } from '#shared/team';
import { button } from '@/styles/button';
import * as fields from '@/components/FormFields.css';
import { Field } from './Field';
import { ReasonDecision } from './ReasonDecision';
import * as styles from './Decision.css';
import type { DecisionActor } from './DecisionFlight';
import { DECISION_LABELS } from './labels';

const OUTCOMES: ReadonlyArray<{ value: PrivacyOutcome; label: string }> = [
  { value: 'complied', label: 'Complied with in full' },
  { value: 'partly', label: 'Answered in part' },
  { value: 'denied', label: 'Denied' },
];

/** A step's button, enabled when the course's chart allows it now (`snapshot.can`). */
function StepButton({ actor, target, draft, tone = 'secondary' }: { actor: DecisionActor; target: DecisionTarget; draft: DecisionDraft; tone?: 'primary' | 'secondary' }) {
  const start = { type: 'decision.start' as const, targets: [target], draft, at: new Date().toISOString() };
  const allowed = useSelector(actor, (s) => s.can(start));
  return (
    <button type="button" className={button({ tone })} disabled={!allowed} onClick={() => actor.send(start)}>
      {DECISION_LABELS[draft.decision]}
    </button>
  );
}

/**
 * The team's steps on a privacy request (11 CCR §7021, §7022, §7024, §7060): mark it verified; respond
 * (the outcome, its basis for a denial or an answer in part, the subject's export attached once they are
 * verified); extend once, with the reason the notice gives. Each button is enabled by the course's chart,
 * built from the request's summary and the clock; each shows its mail before it is confirmed.
 */
export function PrivacySteps({ actor, target }: { actor: DecisionActor; target: DecisionTarget }) {
  const id = useId();
  const [outcome, setOutcome] = useState<PrivacyOutcome>('complied');
  const [basis, setBasis] = useState('');
  const [attachSubject, setAttachSubject] = useState(false);
  const [extension, setExtension] = useState('');
  return (
    <div className={styles.panel}>
      <div className={styles.buttons}>
        <StepButton actor={actor} target={target} draft={{ decision: 'verify' }} />
      </div>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>Respond</legend>
        <fieldset className={fields.choiceGroup}>
          <legend className={fields.choiceLegend}>Outcome</legend>
          {OUTCOMES.map((choice) => (
            <label key={choice.value} className={fields.choice}>
              <input type="radio" name={`${id}-outcome`} value={choice.value} checked={outcome === choice.value} onChange={() => setOutcome(choice.value)} />
              {choice.label}
            </label>
          ))}
        </fieldset>
        <Field htmlFor={`${id}-basis`} label="Basis or reason">
          <p id={`${id}-basis-hint`} className={fields.hint}>
            A denial or an answer in part states its basis (11 CCR §7022, §7024).
          </p>
          <textarea
            id={`${id}-basis`}
            aria-describedby={`${id}-basis-hint`}
            className={fields.textarea}
            rows={2}
            maxLength={TEXT_LIMITS.long}
            value={basis}
            onChange={(event) => setBasis(event.target.value)}
          />
        </Field>
        <label className={fields.choice}>
          <input type="checkbox" checked={attachSubject} onChange={(event) => setAttachSubject(event.target.checked)} />
          Attach the subject&apos;s export (only once they are verified)
        </label>
        <div className={styles.buttons}>
          <StepButton actor={actor} target={target} draft={{ decision: 'respond', outcome, reason: basis, attachSubject }} tone="primary" />
        </div>
      </fieldset>
      <ReasonDecision legend="Extend" id={`${id}-extension`} label="Reason for the extension (told to the requester)" reason={extension} onReason={setExtension}>
        <StepButton actor={actor} target={target} draft={{ decision: 'extend', reason: extension }} />
      </ReasonDecision>
    </div>
  );
}
