import type { privacyRecords } from './schema.ts';

type PrivacyRecord = typeof privacyRecords.$inferSelect;

/**
 * A privacy request's history, oldest first, from its record of 11 CCR §7101: received, confirmation
 * sent, verified, extended (with the reason), responded (outcome, reason, and for the team's own view,
 * `show`, by whom). Dates are ISO 8601.
 * @param options - `withTeam: false` leaves out the team member's name (what the requester is sent)
 */
export function historyOf(record: PrivacyRecord, options: { withTeam: boolean } = { withTeam: true }): Array<Record<string, string>> {
  const at = (date: Date) => date.toISOString();
  const events: Array<Record<string, string>> = [
    { event: 'received', at: at(record.receivedAt), how: record.method, types: record.requestTypes.join(', ') },
  ];
  if (record.confirmationSentAt) events.push({ event: 'confirmation sent', at: at(record.confirmationSentAt) });
  if (record.verifiedAt) events.push({ event: 'verified', at: at(record.verifiedAt), how: record.verifiedBy === 'link' ? 'verification link' : 'recorded by the team' });
  if (record.extendedAt) events.push({ event: 'extended', at: at(record.extendedAt), dueAt: at(record.dueAt), reason: record.extensionReason ?? '' });
  if (record.respondedAt) {
    events.push({
      event: 'responded',
      at: at(record.respondedAt),
      outcome: record.outcome ?? '',
      reason: record.outcomeReason ?? '',
      ...(options.withTeam ? { by: record.respondedBy ?? '' } : {}),
    });
  }
  return events.sort((a, b) => a.at!.localeCompare(b.at!));
}
