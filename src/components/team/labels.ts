import type { InviteDecision, PrivacyStep, QueueState } from '#shared/team';

// The console's words for the charts' names (shared/team.ts).

/** The queue's states, in the order the filter offers them. */
export const QUEUE_STATE_ORDER: readonly QueueState[] = ['received', 'waitlisted', 'accepted', 'declined', 'spam', 'open', 'done', 'overdue'];

export const STATE_LABELS: Record<QueueState, string> = {
  received: 'Received',
  waitlisted: 'Waitlisted',
  accepted: 'Accepted',
  declined: 'Declined',
  spam: 'Spam',
  open: 'Open',
  done: 'Done',
  overdue: 'Overdue',
};

export const KIND_LABELS = { invite: 'Invite', privacy: 'Privacy' } as const;

/** A decision's button, and what its confirmation says is done. */
export const DECISION_LABELS: Record<InviteDecision | PrivacyStep, string> = {
  accept: 'Accept',
  waitlist: 'Waitlist',
  decline: 'Decline',
  spam: 'Mark as spam',
  reopen: 'Reopen',
  verify: 'Mark verified',
  extend: 'Extend by 45 days',
  respond: 'Respond',
};
