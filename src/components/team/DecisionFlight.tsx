import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { teamDecisionMachine } from '#machines/teamDecisionMachine';
import type { DecisionDraft } from '#machines/teamDecisions';
import { button } from '@/styles/button';
import * as fields from '@/components/FormFields.css';
import * as styles from './Decision.css';
import { changedText, counted } from './format';
import { DECISION_LABELS } from './labels';

/** The console's decision actor (machines/teamDecisionMachine.ts). */
export type DecisionActor = ActorRefFrom<typeof teamDecisionMachine>;

/** What a decision does, in words: `Accept 3 requests into Cohort 1`. */
function decisionTitle(draft: DecisionDraft, count: number): string {
  const what = `${DECISION_LABELS[draft.decision]}: ${counted(count, 'request')}`;
  return draft.decision === 'accept' ? `${what} into ${draft.cohort.name}` : what;
}

/** Focuses an element as it appears (what replaced the button pressed), for the keyboard and screen readers. */
const focusOnMount = (element: HTMLElement | null) => element?.focus();

/**
 * A decision in flight: the mails it will send (to, subject, text, as plain text) or "no mail", with
 * Confirm and Cancel; then sending, done, another member's change since the request was seen (who, what,
 * when, in the live region: the request is loaded again), the chart's refusals (nothing changed), or a
 * failure with Try again (nothing lost). Nothing shows while no decision is in flight.
 */
export function DecisionFlight({ actor }: { actor: DecisionActor }) {
  const state = useSelector(actor, (s) => (typeof s.value === 'string' ? s.value : 'idle'));
  const draft = useSelector(actor, (s) => s.context.draft);
  const count = useSelector(actor, (s) => s.context.targets.length);
  const mails = useSelector(actor, (s) => s.context.mails);
  const refusals = useSelector(actor, (s) => s.context.refusals);
  const changed = useSelector(actor, (s) => s.context.changed);
  const targets = useSelector(actor, (s) => s.context.targets);
  const error = useSelector(actor, (s) => s.context.error);
  const send = useCallback((type: 'decision.confirm' | 'decision.cancel' | 'decision.retry') => actor.send({ type }), [actor]);
  if (state === 'idle' || !draft) return <div role="status" className={fields.offScreen} />;
  const title = decisionTitle(draft, count);
  return (
    <section className={styles.flight} aria-labelledby="decision-title">
      <h3 id="decision-title" className={styles.flightTitle} tabIndex={-1} ref={focusOnMount}>
        {title}
      </h3>
      <div role="status">
        {state === 'previewing' && <p>Preparing the mails it will send…</p>}
        {state === 'submitting' && <p>Sending the decision…</p>}
        {state === 'done' && <p className={styles.done}>Done. The mails are on their way.</p>}
        {state === 'changed' && (
          <p className={styles.refusals}>
            {changed
              .map((change) => {
                const name = count === 1 ? undefined : targets.find((target) => target.request.id === change.id)?.request.fullName;
                return changedText(change, name ? `${name}'s request` : 'this');
              })
              .join('; ')}
            {count === 1 ? '; the request has been reloaded.' : '; the requests have been reloaded.'} Nothing of this decision was sent.
          </p>
        )}
      </div>
      {(state === 'confirming' || state === 'submitting') && mails && (
        <>
          {mails.length === 0 ? (
            <p>No mail is sent.</p>
          ) : (
            <ul className={styles.mails} aria-label="Mails it will send">
              {mails.map((mail) => (
                <li key={`${mail.id}-${mail.to}`} className={styles.mail}>
                  <dl className={styles.mailHead}>
                    <dt>To</dt>
                    <dd>{mail.to}</dd>
                    <dt>Subject</dt>
                    <dd>{mail.subject}</dd>
                  </dl>
                  <pre className={styles.mailText}>{mail.text}</pre>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {state === 'refused' && (
        <div role="alert">
          <p>Nothing changed: the decision was refused.</p>
          <ul className={styles.refusals}>
            {refusals.map((refusal) => (
              <li key={refusal}>{refusal}</li>
            ))}
          </ul>
        </div>
      )}
      {state === 'failed' && error && (
        <p role="alert" className={styles.refusals}>
          {error}
        </p>
      )}
      <div className={styles.buttons}>
        {state === 'confirming' && (
          <button type="button" className={button({ tone: 'primary' })} onClick={() => send('decision.confirm')}>
            Confirm and send
          </button>
        )}
        {state === 'failed' && (
          <button type="button" className={button({ tone: 'primary' })} onClick={() => send('decision.retry')}>
            Try again
          </button>
        )}
        {state !== 'submitting' && (
          <button type="button" className={button({ tone: 'secondary' })} onClick={() => send('decision.cancel')}>
            {state === 'done' || state === 'refused' || state === 'changed' ? 'Close' : 'Cancel'}
          </button>
        )}
      </div>
    </section>
  );
}
