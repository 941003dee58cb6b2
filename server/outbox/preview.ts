import { RETENTION } from '#shared/policy';
import type { MailPreview, PreviewRequest } from '#shared/team';
import type { CohortView } from '../db/cohorts.ts';
import { decisionMailOf } from '../db/decisions.ts';
import type { PrivacyOutcome } from '../db/schema.ts';
import type { PrivacyRecord, Row } from '../db/summary.ts';
import { composeMail, type MailSettings } from './mail.ts';
import type { Delivery } from './channel.ts';

/** A decision of the review (server/db/decisions.ts) or a step on a privacy request (server/db/privacySteps.ts). */
export type PreviewDecision = PreviewRequest['decision'];

/** What the decision would fix, as its own call takes it. */
export interface PreviewFacts {
  /** `accept`: the cohort, as stored */
  cohort?: Pick<CohortView, 'name' | 'startsOn'>;
  /** `decline`: told to the applicant; `extend`: the notice's reason; `respond`: the basis or a note */
  reason?: string;
  /** `respond` */
  outcome?: PrivacyOutcome;
  /** `respond`: the requester's data attached */
  attachSubject?: boolean;
}

/** One mail a decision would write to a request's requester, as the outbox would send it (shared/team.ts). */
export type { MailPreview };

const DAY_MS = 86_400_000;

/**
 * The mail `decision` would write to each request's requester, rendered now by the outbox's own
 * composition (server/outbox/mail.ts `composeMail`, the templates of server/outbox/messages/) from the row
 * the decision's statement would write: an acceptance's cohort and start, a decline's reason
 * (server/db/decisions.ts `decisionMailOf`), a response's outcome and basis, an extension's reason and its
 * due date `RETENTION.privacyResponseDays` days on. None for spam, reopen and verify. Pure: stores nothing,
 * asks no chart (a decision the chart would refuse is previewed all the same).
 * @param requests - each request's row and privacy record, in the order to answer
 * @param settings - `privacyEmail` (the Reply-To and the address privacy mail names), `teamEmail`
 * @param siteUrl - the public origin, for the links in the messages
 * @throws Error from `composeMail` when a fact the mail states is missing (`accept` without `cohort`,
 *   `respond` without `outcome` or on a request with no privacy record, `extend` without `reason`)
 */
export function previewMails(
  requests: ReadonlyArray<{ row: Row; record: PrivacyRecord | null }>,
  decision: PreviewDecision,
  facts: PreviewFacts,
  settings: Pick<MailSettings, 'privacyEmail' | 'teamEmail'>,
  siteUrl: string,
): MailPreview[] {
  if (decision === 'verify') return [];
  return requests.flatMap(({ row, record }) => {
    const base: Delivery = {
      id: row.id,
      channel: 'mail',
      message: null,
      event: null,
      payload: null,
      createdAt: new Date(),
      attachSubject: false,
      record: record
        ? { outcome: record.outcome, outcomeReason: record.outcomeReason, extensionReason: record.extensionReason, requestTypes: record.requestTypes }
        : null,
      attempts: 1,
      submissionId: row.id,
      kind: row.kind,
      email: row.email,
      receivedAt: row.receivedAt,
      dueAt: row.dueAt,
      body: row.body,
      covered: [],
      rendered: null,
    };
    let delivery: Delivery;
    if (decision === 'respond') {
      delivery = {
        ...base,
        message: 'privacy-outcome',
        attachSubject: facts.attachSubject ?? false,
        record: base.record && { ...base.record, outcome: facts.outcome ?? null, outcomeReason: facts.reason ?? null },
      };
    } else if (decision === 'extend') {
      // what server/db/privacyAnswers.ts extendDueDate writes: the due date RETENTION.privacyResponseDays days on
      const dueAt = row.dueAt && new Date(row.dueAt.getTime() + RETENTION.privacyResponseDays * DAY_MS);
      delivery = { ...base, message: 'privacy-extension', dueAt, record: base.record && { ...base.record, extensionReason: facts.reason ?? null } };
    } else {
      const mail = decisionMailOf(decision, { ...(facts.cohort ? { cohort: facts.cohort } : {}), reason: facts.reason ?? null });
      if (!mail) return [];
      delivery = { ...base, message: mail.message, payload: mail.payload };
    }
    const { to, subject, text } = composeMail(delivery, settings, siteUrl);
    return [{ id: row.id, to, subject, text }];
  });
}
