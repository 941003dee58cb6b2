import { Link } from 'react-router-dom';
import { TEAM_PATHS, type RequestDetail } from '#shared/team';
import { dayOf, fieldLabel, valueText } from './format';
import { KIND_LABELS } from './labels';
import { RequestBlock } from './RequestBlock';
import * as styles from './Request.css';

/** Keys and values as a description list; every value inert text (React escapes it: never HTML). */
function Facts({ entries, label }: { entries: Array<[string, unknown]>; label: string }) {
  return (
    <dl className={styles.facts} aria-label={label}>
      {entries.map(([key, value]) => (
        <div key={key} className={styles.pair}>
          <dt className={styles.term}>{fieldLabel(key)}</dt>
          <dd className={styles.value}>{valueText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A request as submitted: every field as the requester typed it, the client metadata of spec §3 apart,
 * and the other requests from the same mailbox, linked.
 */
export function RequestFacts({ detail }: { detail: RequestDetail }) {
  return (
    <>
      <RequestBlock id="as-submitted" title="As submitted">
        <Facts label="Fields as submitted" entries={Object.entries(detail.fields)} />
      </RequestBlock>
      <RequestBlock id="client-metadata" title="Client metadata">
        <Facts label="Metadata the browser sent" entries={Object.entries(detail.metadata)} />
      </RequestBlock>
      <RequestBlock id="same-mailbox" title="Other requests from this mailbox">
        {detail.sameMailbox.length === 0 ? (
          <p>None.</p>
        ) : (
          <ul className={styles.links}>
            {detail.sameMailbox.map((other) => (
              <li key={other.id}>
                <Link to={TEAM_PATHS.request(other.id)}>
                  {KIND_LABELS[other.kind]} request of {dayOf(other.receivedAt)}
                </Link>{' '}
                ({other.state})
              </li>
            ))}
          </ul>
        )}
      </RequestBlock>
    </>
  );
}
