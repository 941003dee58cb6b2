import { dueBandOf, type DueBand } from '#shared/dueBand';
import type { RequestSummary } from '#shared/team';
import { badge } from './Badge.css';
import { counted, dayOf } from './format';

/** The badge's tone of each band of shared/dueBand.ts. */
const TONES = { overdue: 'overdue', under_5_days: 'urgent', under_10_days: 'soon', later: 'ok' } as const satisfies Record<DueBand, string>;

/**
 * A privacy request's due date (11 CCR §7021(b)) counting down: 10 days or more left green, under 10
 * amber, under 5 red; overdue on a red ground with the word "Overdue". A request answered shows its
 * due date alone; an invite request has none.
 */
export function DueBadge({ request }: { request: RequestSummary }) {
  if (!request.dueAt) return null;
  const due = dayOf(request.dueAt);
  const days = request.daysLeft;
  if (days === undefined) return <span>{due}</span>;
  const tone = TONES[dueBandOf(days)];
  if (tone === 'overdue')
    return (
      <span className={badge({ tone: 'overdue' })}>
        Overdue by {counted(-days, 'day')} ({due})
      </span>
    );
  return (
    <span className={badge({ tone })}>
      {days === 0 ? 'Due today' : `${counted(days, 'day')} left`} ({due})
    </span>
  );
}
