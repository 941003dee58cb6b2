import { dueBandOf, type DueBand } from '#shared/dueBand';
import type { RequestSummary } from '#shared/team';
import { badge } from './Badge.css';
import { counted, dayOf } from './format';

/** The badge's tone for each band (`#shared/dueBand`, the rule the team's daily digest lists by too). */
const TONE: Record<Exclude<DueBand, 'overdue'>, 'urgent' | 'soon' | 'ok'> = { under_5_days: 'urgent', under_10_days: 'soon', later: 'ok' };

/**
 * A privacy request's due date (11 CCR §7021(b)) counting down: 10 days or more left green, under 10
 * amber, under 5 red; overdue (its due moment come) on a red ground with the word "Overdue". A request
 * answered shows its due date alone; an invite request has none.
 */
export function DueBadge({ request }: { request: RequestSummary }) {
  if (!request.dueAt) return null;
  const due = dayOf(request.dueAt);
  const days = request.daysLeft;
  if (days === undefined) return <span>{due}</span>;
  const band = dueBandOf(days);
  if (band === 'overdue')
    return (
      <span className={badge({ tone: 'overdue' })}>
        {days < 0 ? `Overdue by ${counted(-days, 'day')}` : 'Overdue today'} ({due})
      </span>
    );
  return (
    <span className={badge({ tone: TONE[band] })}>
      {counted(days, 'day')} left ({due})
    </span>
  );
}
