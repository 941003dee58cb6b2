import { useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { TEAM_PATHS, type RequestSummary } from '#shared/team';
import { badge } from './Badge.css';
import { DueBadge } from './DueBadge';
import { dayOf } from './format';
import { KIND_LABELS, STATE_LABELS } from './labels';
import * as styles from './Queue.css';

interface QueueTableProps {
  requests: readonly RequestSummary[];
  selected: readonly string[];
  onToggle: (id: string) => void;
  onSelectAll: () => void;
  onClearSelection: () => void;
  /** opens a request's page */
  onOpen: (id: string) => void;
}

/** A request's state: an invite's review state (with its cohort once accepted), a privacy request's outcome or status; "repeats" for a repeat. */
function StateCell({ request }: { request: RequestSummary }) {
  const state = request.state ? STATE_LABELS[request.state] : request.outcome ? `Answered: ${request.outcome}` : STATE_LABELS[request.status];
  return (
    <>
      <span className={badge({ tone: 'neutral' })}>{state}</span>
      {request.state === 'accepted' && request.cohort && <span className={styles.muted}>{request.cohort}</span>}
      {request.duplicateOf && (
        <span className={styles.muted}>
          repeats <Link to={TEAM_PATHS.request(request.duplicateOf)} tabIndex={-1}>an earlier request</Link>
        </span>
      )}
    </>
  );
}

/**
 * The queue as a table whose rows the keyboard walks (a roving tabindex: one row in the tab order, the
 * one last moved to): ArrowDown or j, ArrowUp or k move; Home and End go to the first and last; Enter
 * opens the request; Space or x selects an invite request for a bulk decision. The checkboxes and links
 * inside a row are for the pointer, out of the tab order. Columns: received, kind, name and company,
 * state, verification, due; on a narrow screen the kind and day move under the name (Queue.css.ts).
 */
export function QueueTable({ requests, selected, onToggle, onSelectAll, onClearSelection, onOpen }: QueueTableProps) {
  const [active, setActive] = useState(0);
  const rows = useRef<Array<HTMLTableRowElement | null>>([]);
  const current = Math.min(active, Math.max(requests.length - 1, 0));
  const invites = requests.filter((request) => request.kind === 'invite');
  const allSelected = invites.length > 0 && invites.every((request) => selected.includes(request.id));

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(index, requests.length - 1));
    setActive(next);
    rows.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number, request: RequestSummary) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(index + 1),
      j: () => moveTo(index + 1),
      ArrowUp: () => moveTo(index - 1),
      k: () => moveTo(index - 1),
      Home: () => moveTo(0),
      End: () => moveTo(requests.length - 1),
      Enter: () => onOpen(request.id),
      ' ': () => request.kind === 'invite' && onToggle(request.id),
      x: () => request.kind === 'invite' && onToggle(request.id),
    };
    const action = keys[event.key];
    if (!action || event.target !== event.currentTarget) return;
    event.preventDefault();
    action();
  };

  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-describedby="queue-keys">
        <caption className={styles.caption}>Requests, newest first</caption>
        <thead>
          <tr>
            <th scope="col" className={styles.headCell}>
              <input
                type="checkbox"
                aria-label="Select every invite request shown"
                checked={allSelected}
                disabled={invites.length === 0}
                onChange={() => (allSelected ? onClearSelection() : onSelectAll())}
              />
            </th>
            <th scope="col" className={`${styles.headCell} ${styles.wideOnly}`}>Received</th>
            <th scope="col" className={`${styles.headCell} ${styles.wideOnly}`}>Kind</th>
            <th scope="col" className={styles.headCell}>Name and company</th>
            <th scope="col" className={styles.headCell}>State</th>
            <th scope="col" className={styles.headCell}>Verification</th>
            <th scope="col" className={styles.headCell}>Due</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request, index) => {
            const isSelected = selected.includes(request.id);
            return (
              <tr
                key={request.id}
                ref={(element) => {
                  rows.current[index] = element;
                }}
                className={styles.row}
                tabIndex={index === current ? 0 : -1}
                data-selected={isSelected}
                data-request-id={request.id}
                onKeyDown={(event) => onKeyDown(event, index, request)}
                onFocus={() => setActive(index)}
                onClick={(event) => {
                  if ((event.target as HTMLElement).closest('a, input')) return;
                  onOpen(request.id);
                }}
              >
                <td className={styles.cell}>
                  {request.kind === 'invite' && (
                    <input type="checkbox" tabIndex={-1} aria-label={`Select ${request.fullName}`} checked={isSelected} onChange={() => onToggle(request.id)} />
                  )}
                </td>
                <td className={`${styles.cell} ${styles.wideOnly}`}>
                  <time dateTime={request.receivedAt}>{dayOf(request.receivedAt)}</time>
                </td>
                <td className={`${styles.cell} ${styles.wideOnly}`}>{KIND_LABELS[request.kind]}</td>
                <td className={styles.cell}>
                  <Link to={TEAM_PATHS.request(request.id)} tabIndex={-1}>
                    {request.fullName}
                  </Link>
                  <span className={styles.muted}>{request.company}</span>
                  <span className={styles.narrowOnly}>
                    {KIND_LABELS[request.kind]}, received <time dateTime={request.receivedAt}>{dayOf(request.receivedAt)}</time>
                  </span>
                </td>
                <td className={styles.cell}>
                  <StateCell request={request} />
                </td>
                <td className={styles.cell}>{request.verification ?? ''}</td>
                <td className={styles.cell}>
                  <DueBadge request={request} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
