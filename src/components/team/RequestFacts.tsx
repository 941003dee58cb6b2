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

/** Other requests, each a link to its page: its kind and day, its state, and with `withEmail` the address it came from. */
function OtherRequests({ requests, withEmail }: { requests: RequestDetail['sameMailbox']; withEmail: boolean }) {
  if (requests.length === 0) return <p>None.</p>;
  return (
    <ul className={styles.links}>
      {requests.map((other) => (
        <li key={other.id}>
          <Link to={TEAM_PATHS.request(other.id)}>
            {KIND_LABELS[other.kind]} request of {dayOf(other.receivedAt)}
          </Link>{' '}
          ({withEmail ? `from ${other.email}, ${other.state}` : other.state})
        </li>
      ))}
    </ul>
  );
}

/**
 * A request as submitted: every field as the requester typed it, the client metadata of spec §3 apart,
 * and the other requests from the same mailbox, linked, in two lists: those from this very address (in
 * its data export and erasure) and the other spellings of the mailbox, which may be the same person or
 * someone else (11 CCR §7060–§7062: a person's data is matched to the address that was verified), so
 * the team acts on each one from its own page, with its own verification, never in bulk.
 */
export function RequestFacts({ detail }: { detail: RequestDetail }) {
  const sameAddress = detail.sameMailbox.filter((other) => other.sameAddress);
  const otherSpellings = detail.sameMailbox.filter((other) => !other.sameAddress);
  return (
    <>
      <RequestBlock id="as-submitted" title="As submitted">
        <Facts label="Fields as submitted" entries={Object.entries(detail.fields)} />
      </RequestBlock>
      <RequestBlock id="client-metadata" title="Client metadata">
        <Facts label="Metadata the browser sent" entries={Object.entries(detail.metadata)} />
      </RequestBlock>
      <RequestBlock id="same-address" title="Other requests from this address">
        <OtherRequests requests={sameAddress} withEmail={false} />
      </RequestBlock>
      <RequestBlock id="other-spellings" title="Other spellings that may be the same person">
        {otherSpellings.length > 0 && (
          <p>
            The same mailbox spelled another way (a +tag, Gmail&apos;s dots, googlemail.com): maybe this person, maybe someone else. Their data is not in this
            request&apos;s export or erasure. Open each one and act on it there, with its own verification.
          </p>
        )}
        <OtherRequests requests={otherSpellings} withEmail />
      </RequestBlock>
    </>
  );
}
