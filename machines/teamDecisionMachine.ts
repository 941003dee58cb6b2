import { assign, fromPromise, setup } from 'xstate';
import { decide, previewMails, takePrivacyStep } from '@/services/teamApi';
import type { ChangedMeanwhile, MailPreview, PreviewRequest } from '#shared/team';
import { chartsAllow, seenCourseState, seenReviewStates, type DecisionDraft, type DecisionTarget } from './teamDecisions';
import { changedMeanwhile, changesOf, problemText, refusalsOf, refused, sessionEnded, sessionEndedTransition, storeCallError, type CallFailure } from './teamCalls';
import { unlessAborted } from './abortable';

/** A decision as the member fills it in, and a request it is about (./teamDecisions.ts). */
export type { DecisionDraft, DecisionTarget };

export interface TeamDecisionContext {
  targets: DecisionTarget[];
  draft: DecisionDraft | null;
  /** the mails the decision sends, once previewed; null before */
  mails: MailPreview[] | null;
  /** why the chart refused it (409), one line per request */
  refusals: string[];
  /** the requests another member changed since this one saw them (409): the state now, who and when */
  changed: ChangedMeanwhile[];
  /** why the last call failed; null when it did not */
  error: string | null;
}

/** What the member does with a decision. `at`: the member's clock (ISO 8601), which the privacy course's deadline reads. */
export type TeamDecisionEvent =
  | { type: 'decision.start'; targets: DecisionTarget[]; draft: DecisionDraft; at: string }
  | { type: 'decision.confirm' }
  | { type: 'decision.cancel' }
  | { type: 'decision.retry' };

/** The preview's body: the decision and what its mail says (shared/team.ts `PreviewRequest`). */
function previewOf(targets: readonly DecisionTarget[], draft: DecisionDraft): PreviewRequest {
  const ids = targets.map((target) => target.request.id);
  switch (draft.decision) {
    case 'accept':
      return { decision: 'accept', ids, cohort: draft.cohort.name };
    case 'decline':
    case 'extend':
      return { decision: draft.decision, ids, ...(draft.reason.trim() ? { reason: draft.reason.trim() } : {}) };
    case 'respond':
      return { decision: 'respond', ids, outcome: draft.outcome, attachSubject: draft.attachSubject, ...(draft.reason.trim() ? { reason: draft.reason.trim() } : {}) };
    default:
      return { decision: draft.decision, ids };
  }
}

/**
 * Takes the decision: POST /decisions for invite requests, POST /privacy/:step for a privacy request,
 * each from the state the member saw (`from`), so that the server takes it only if it still is.
 */
async function submit(targets: readonly DecisionTarget[], draft: DecisionDraft): Promise<void> {
  const [first] = targets;
  if (!first) throw new Error('no request');
  const ids = targets.map((target) => target.request.id);
  const reason = 'reason' in draft && draft.reason.trim() ? draft.reason.trim() : undefined;
  const step = { id: first.request.id, from: seenCourseState(first) };
  const from = seenReviewStates(targets);
  switch (draft.decision) {
    case 'verify':
      await takePrivacyStep({ step: 'verify', ...step });
      return;
    case 'extend':
      await takePrivacyStep({ step: 'extend', ...step, reason: reason ?? '' });
      return;
    case 'respond':
      await takePrivacyStep({ step: 'respond', ...step, outcome: draft.outcome, attachSubject: draft.attachSubject, ...(reason ? { reason } : {}) });
      return;
    case 'accept':
      await decide({ decision: 'accept', ids, from, cohort: draft.cohort.name });
      return;
    default:
      await decide({ decision: draft.decision, ids, from, ...(reason ? { reason } : {}) });
  }
}

/** A `decision.start` event, as a transition's params function receives it. */
type DecisionStart = { event: Extract<TeamDecisionEvent, { type: 'decision.start' }> };

// The transitions that two states of the machine take alike. Each state adds its own plain
// `description: '…'` property, which the production build leaves out (vite.config.ts).

/** `decision.start` (in `idle` and `done`): a decision the charts allow on every request chosen is stored, then previewed. */
const startDecision = {
  guard: { type: 'chartsAllow' as const, params: ({ event }: DecisionStart) => event },
  target: 'previewing',
  actions: { type: 'storeDecision' as const, params: ({ event }: DecisionStart) => event },
};

/**
 * The decision answered 409 because a request changed since the member saw it: what changed it (who,
 * when) is stored, and what changed is loaded again (`reloadChanged`, the view's).
 */
const changedByAnother = {
  guard: { type: 'changedMeanwhile' as const, params: ({ event }: CallFailure) => ({ error: event.error }) },
  target: 'changed',
  actions: [{ type: 'storeChanged' as const, params: ({ event }: CallFailure) => ({ error: event.error }) }, 'reloadChanged' as const],
};

/** A call (the preview, the decision) answered 409: the chart refuses it; each refusal is stored. */
const refusedByChart = {
  guard: { type: 'refused' as const, params: ({ event }: CallFailure) => ({ error: event.error }) },
  target: 'refused',
  actions: { type: 'storeRefusals' as const, params: ({ event }: CallFailure) => ({ error: event.error }) },
};

/**
 * A decision in flight, in the queue (invite requests, in bulk) or on a request's page: its mails are
 * previewed and shown (to, subject, text; none for spam, reopen or verify), then taken on Confirm. The
 * member can cancel until then. Each is taken from the state the member saw: when another member changed
 * a request meanwhile (409 with `changed`), who did what and when is said and the request is loaded again.
 * A refusal by the chart (409) lists why, and nothing changed; a failure
 * (offline, 5xx) can be tried again, with nothing lost. Done, what changed is loaded again
 * (`reloadChanged`, the view's); a 401 tells the session (`endSession`, the view's).
 */
export const teamDecisionMachine = setup({
  types: {
    context: {} as TeamDecisionContext,
    events: {} as TeamDecisionEvent,
  },
  actors: {
    previewMails: fromPromise<MailPreview[], { targets: DecisionTarget[]; draft: DecisionDraft | null }>(({ input, signal }) =>
      unlessAborted(input.draft ? previewMails(previewOf(input.targets, input.draft)) : Promise.reject(new Error('no decision')), signal),
    ),
    submitDecision: fromPromise<void, { targets: DecisionTarget[]; draft: DecisionDraft | null }>(({ input, signal }) =>
      unlessAborted(input.draft ? submit(input.targets, input.draft) : Promise.reject(new Error('no decision')), signal),
    ),
  },
  actions: {
    storeDecision: assign((_, params: { targets: DecisionTarget[]; draft: DecisionDraft }) => ({
      targets: params.targets,
      draft: params.draft,
      mails: null,
      refusals: [],
      changed: [],
      error: null,
    })),
    storeMails: assign({ mails: (_, mails: MailPreview[]) => mails }),
    storeRefusals: assign({ refusals: (_, params: { error: unknown }) => refusalsOf(params.error) }),
    storeChanged: assign({ changed: (_, params: { error: unknown }) => changesOf(params.error) }),
    storeError: assign({ error: (_, params: { error: unknown }) => problemText(params.error) }),
    clearError: assign({ error: null }),
    forget: assign({ targets: [], draft: null, mails: null, refusals: [], changed: [], error: null }),
    // the view's: what changed is loaded again; the session hears of a 401
    reloadChanged: () => {},
    endSession: () => {},
  },
  guards: {
    chartsAllow: (_, params: { targets: DecisionTarget[]; draft: DecisionDraft; at: string }) => chartsAllow(params.targets, params.draft, params.at),
    hasPreview: ({ context }) => context.mails !== null,
    sessionEnded: (_, params: { error: unknown }) => sessionEnded(params.error),
    refused: (_, params: { error: unknown }) => refused(params.error),
    changedMeanwhile: (_, params: { error: unknown }) => changedMeanwhile(params.error),
  },
}).createMachine({
  id: 'teamDecision',
  description: 'A decision in flight in the console: its mails previewed, confirmed by the member, then taken; refused by the chart, failed, or done.',
  context: { targets: [], draft: null, mails: null, refusals: [], changed: [], error: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'No decision in flight: the buttons the charts allow are enabled.',
      on: {
        'decision.start': { ...startDecision, description: 'A decision the charts allow on every request chosen: its mails are previewed first.' },
      },
    },
    previewing: {
      description: 'POST /api/team/preview: the mails the decision would send, nothing stored.',
      invoke: {
        id: 'previewMails',
        src: 'previewMails',
        input: ({ context }) => ({ targets: context.targets, draft: context.draft }),
        onDone: { target: 'confirming', actions: { type: 'storeMails', params: ({ event }) => event.output }, description: 'The mails are shown for the member to confirm.' },
        onError: [
          sessionEndedTransition(),
          { ...refusedByChart, description: '409: the chart refuses it (the request changed meanwhile): why, and nothing changed.' },
          { target: 'failed', actions: storeCallError, description: 'No answer, or an error: try again.' },
        ],
      },
      on: { 'decision.cancel': { target: 'idle', actions: 'forget', description: 'Cancelled: nothing is sent.' } },
    },
    confirming: {
      description: 'Each mail the decision sends (to, subject, text), or "no mail": Confirm or Cancel.',
      on: {
        'decision.confirm': { target: 'submitting', description: 'Confirmed: the decision is taken.' },
        'decision.cancel': { target: 'idle', actions: 'forget', description: 'Cancelled: nothing is sent, nothing changes.' },
      },
    },
    submitting: {
      description: 'POST /api/team/decisions (invite requests) or /privacy/:step (a privacy request): one transaction, all or nothing.',
      invoke: {
        id: 'submitDecision',
        src: 'submitDecision',
        input: ({ context }) => ({ targets: context.targets, draft: context.draft }),
        onDone: { target: 'done', actions: 'reloadChanged', description: 'Taken: what changed is loaded again.' },
        onError: [
          sessionEndedTransition(),
          {
            ...changedByAnother,
            description: '409: a request is no longer in the state the member saw (another member decided meanwhile): who and when, and the request is loaded again; nothing changed, no mail sent.',
          },
          { ...refusedByChart, description: '409: the chart refused it for a request (or the cohort is full): each refusal, and nothing changed.' },
          { target: 'failed', actions: storeCallError, description: 'No answer (offline), a 5xx, or a 400: said; the decision, and the reason typed, stay to try again.' },
        ],
      },
    },
    done: {
      description: 'The decision is taken and its mails queued: said; another decision can follow.',
      on: {
        'decision.start': { ...startDecision, description: 'Another decision the charts allow: previewed first.' },
        'decision.cancel': { target: 'idle', actions: 'forget', description: 'The note of what was done is closed.' },
      },
    },
    changed: {
      description: 'Another member changed a request since this one saw it (409): who did what and when is said, the request is loaded again, and nothing of this decision was taken.',
      on: {
        'decision.start': { ...startDecision, description: 'A decision on the request as it is now: previewed first.' },
        'decision.cancel': { target: 'idle', actions: 'forget', description: 'The note of what changed is closed.' },
      },
    },
    refused: {
      description: 'The chart refused it (409): each refusal is listed, and nothing changed.',
      on: { 'decision.cancel': { target: 'idle', actions: 'forget', description: 'Back to the decisions.' } },
    },
    failed: {
      description: 'The call failed (offline, 5xx): said; nothing was lost, and it can be tried again.',
      on: {
        'decision.retry': [
          { guard: 'hasPreview', target: 'submitting', actions: 'clearError', description: 'Try again: the decision, as confirmed.' },
          { target: 'previewing', actions: 'clearError', description: 'Try again: the preview.' },
        ],
        'decision.cancel': { target: 'idle', actions: 'forget', description: 'Given up: nothing changed.' },
      },
    },
  },
});
