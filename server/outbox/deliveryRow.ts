import type { SubmissionBody } from '#shared/submission';
import type { ClaimedDelivery } from '../db/deliveries.ts';
import type { CoveredRequest, Delivery } from './channel.ts';

/** A timestamp as either driver returns it, as a Date; null stays null. */
export const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/**
 * A claimed request's delivery (server/db/deliveries.ts `claimDeliveries`) as the channels take it: the
 * timestamps as Dates, the JSON columns parsed where the driver left them as text (PGlite), the privacy
 * record only for a privacy request.
 */
export function deliveryOf(row: ClaimedDelivery): Delivery {
  const covered = (typeof row.covered === 'string' ? (JSON.parse(row.covered) as Exclude<ClaimedDelivery['covered'], string>) : row.covered).map(
    (request): CoveredRequest => ({ id: request.id, receivedAt: new Date(request.received_at), dueAt: asDate(request.due_at), body: request.body }),
  );
  return {
    id: row.id,
    channel: row.channel,
    message: row.message,
    event: row.event,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
    createdAt: asDate(row.created_at)!,
    attachSubject: row.attach_subject,
    record: row.request_types === null
      ? null
      : { outcome: row.outcome, outcomeReason: row.outcome_reason, extensionReason: row.extension_reason, requestTypes: row.request_types },
    attempts: row.attempts,
    submissionId: row.submission_id,
    kind: row.kind,
    email: row.email,
    receivedAt: asDate(row.received_at)!,
    dueAt: asDate(row.record_due_at ?? row.due_at),
    body: typeof row.body === 'string' ? (JSON.parse(row.body) as SubmissionBody) : row.body,
    covered,
    rendered: row.rendered,
  };
}
