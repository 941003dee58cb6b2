import type { RequestSummary } from '#shared/team';
import { badge } from './Badge.css';
import { counted, dayOf } from './format';

/** Days left from which a due date is no longer green (the DSR tools' amber), and red. */
const DUE_SOON_DAYS = 10;
const DUE_URGENT_DAYS = 5;

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
  if (days < 0)
    return (
      <span className={badge({ tone: 'overdue' })}>
        Overdue by {counted(-days, 'day')} ({due})
      </span>
    );
  const tone = days < DUE_URGENT_DAYS ? 'urgent' : days < DUE_SOON_DAYS ? 'soon' : 'ok';
  return (
    <span className={badge({ tone })}>
      {days === 0 ? 'Due today' : `${counted(days, 'day')} left`} ({due})
    </span>
  );
}
