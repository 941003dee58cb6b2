import { asc, eq, sql } from 'drizzle-orm';
import type { TimelineEntry } from '#shared/team';
import type { Db } from './database.ts';
import { historyOf } from './privacyAnswers.ts';
import { cohorts, deliveries, privacyRecords, timeline } from './schema.ts';

export type { TimelineEntry };

/**
 * Everything that happened to a stored request, oldest first: its receipt; each delivery it caused
 * (a mail with its message, the team's announcement, a signed event), with its delivery state
 * (`delivered`, `failed` with the attempts made, or `waiting`); a privacy request's steps from its record
 * of 11 CCR §7101 (confirmation sent, verified, extended, responded); and each decision and note of the
 * team, with who and when. Read from the tables that keep each (`submissions`, `deliveries`,
 * `privacy_records`, `timeline`): nothing is written twice.
 * @param request - the stored request's id and receipt
 */
export async function timelineOf(db: Db, request: { id: string; receivedAt: Date }): Promise<TimelineEntry[]> {
  const at = (date: Date) => date.toISOString();
  const [sent, decisions, [record]] = await Promise.all([
    db.select().from(deliveries).where(eq(deliveries.submissionId, request.id)).orderBy(asc(deliveries.createdAt)),
    db
      .select({ entry: timeline, cohort: cohorts.name })
      .from(timeline)
      .leftJoin(cohorts, eq(cohorts.id, timeline.cohortId))
      .where(eq(timeline.submissionId, request.id))
      .orderBy(asc(timeline.at), asc(sql`${timeline.action} = 'note'`)),
    db.select().from(privacyRecords).where(eq(privacyRecords.id, request.id)),
  ]);
  const entries: TimelineEntry[] = [{ event: 'received', at: at(request.receivedAt), how: 'web form' }];
  for (const delivery of sent) {
    const what: { event: string } & Record<string, string> =
      delivery.channel === 'mail' ? { event: 'mail', message: delivery.message ?? '' }
      : delivery.channel === 'event' ? { event: 'signed event', type: delivery.event ?? '' }
      : { event: 'announcement' };
    const state: Record<string, string> =
      delivery.deliveredAt ? { delivery: 'delivered', deliveredAt: at(delivery.deliveredAt) }
      : delivery.failedAt ? { delivery: 'failed', attempts: String(delivery.attempts) }
      : { delivery: 'waiting', attempts: String(delivery.attempts) };
    entries.push({ ...what, at: at(delivery.createdAt), ...state });
  }
  if (record) entries.push(...historyOf(record).filter((entry) => entry.event !== 'received' && entry.event !== 'confirmation sent').map((entry) => entry as TimelineEntry));
  for (const { entry, cohort } of decisions) {
    entries.push({
      event: entry.action,
      at: at(entry.at),
      by: entry.actor,
      ...(entry.toState ? { from: entry.fromState ?? '', to: entry.toState } : {}),
      ...(cohort ? { cohort } : {}),
      ...(entry.reason ? { [entry.action === 'note' ? 'text' : 'reason']: entry.reason } : {}),
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}
