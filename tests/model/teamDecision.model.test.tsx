import { screen, waitFor } from '@testing-library/dom';
import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import type { TeamDecisionContext } from '#machines/teamDecisionMachine';
import type { TeamApiError } from '@/services/teamApi';
import { answerTeamApi, renderConsole, teamCalls } from '../support/teamConsole';
import { holdTeamCalls, type HeldCall } from '../support/teamNetwork';
import { CHANGED_AT, DECIDED_REQUEST, teamDecisionModel } from './models';
import { describeModel } from './runner';

const TITLE = 'Waitlist: 1 request';

/** Answers the held call of `kind` as a model event says: its output, a status (with the refusals), or no answer. */
function answer(network: ReturnType<typeof holdTeamCalls>, kind: HeldCall, event: AnyEventObject) {
  if (event.type.startsWith('xstate.done.')) return network.answer(kind, 200, kind === 'preview' ? { mails: event.output } : { decided: [] });
  const error = (event as { error?: TeamApiError }).error;
  if (!error || error.status === null) return network.fail(kind);
  return network.answer(kind, error.status, { error: error.message, refusals: error.refusals, changed: error.changed });
}

/** Whether a model event answers the decision: taken, or refused as another member changed the request meanwhile. */
const reloads = (event: AnyEventObject | undefined) =>
  event?.type === 'xstate.done.actor.submitDecision' || (event?.type === 'xstate.error.actor.submitDecision' && Boolean((event as { error?: TeamApiError }).error?.changed.length));

/** Counts a 401 answered, which the session must hear of. */
function counting(kind: HeldCall) {
  return async ({ network, unauthorized }: { network: ReturnType<typeof holdTeamCalls>; unauthorized: { count: number } }, _before: unknown, event: AnyEventObject) => {
    if ((event as { error?: TeamApiError }).error?.status === 401) unauthorized.count += 1;
    answer(network, kind, event);
  };
}

describeModel(teamDecisionModel, {
  start: () => {
    answerTeamApi();
    const network = holdTeamCalls();
    return { ...renderConsole(`/team/requests/${DECIDED_REQUEST.id}`, { fakeTimers: true }), network, unauthorized: { count: 0 }, submissions: { count: 0 }, loads: { count: 0 } };
  },
  actions: {
    'decision.start': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Waitlist' })),
    'xstate.done.actor.previewMails': counting('preview'),
    'xstate.error.actor.previewMails': counting('preview'),
    'decision.confirm': ({ user }) => user.click(screen.getByRole('button', { name: 'Confirm and send' })),
    'decision.cancel': ({ user }) => user.click(screen.getByRole('button', { name: /^(Cancel|Close)$/ })),
    'decision.retry': ({ user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
    'xstate.done.actor.submitDecision': counting('decide'),
    'xstate.error.actor.submitDecision': counting('decide'),
  },
  expectView: async (state, { network, sessionEnded, unauthorized, submissions, loads }, event) => {
    const context = state.context as TeamDecisionContext;
    await screen.findByRole('heading', { level: 1, name: DECIDED_REQUEST.fullName });
    // the request is loaded once, and again after each decision taken or refused as changed meanwhile
    if (loads.count === 0) loads.count = teamCalls('GET', `/requests/${DECIDED_REQUEST.id}`).length;
    if (reloads(event)) loads.count += 1;
    await waitFor(() => expect(teamCalls('GET', `/requests/${DECIDED_REQUEST.id}`)).toHaveLength(loads.count));
    const waitlist = screen.getByRole('button', { name: 'Waitlist' });
    const title = screen.queryByRole('heading', { level: 3, name: TITLE });
    // the buttons are the chart's: enabled with no decision in flight (or one done), else disabled
    if (state.matches('idle') || state.matches('done') || state.matches('changed')) expect(waitlist).toBeEnabled();
    else expect(waitlist).toBeDisabled();
    if (state.matches('idle')) expect(title).not.toBeInTheDocument();
    else expect(title).toBeInTheDocument();
    // the preview asks for this decision on this request, and nothing is decided before Confirm
    for (const call of teamCalls('POST', '/preview')) expect(call.body).toEqual({ decision: 'waitlist', ids: [DECIDED_REQUEST.id] });
    if (state.matches('submitting') && (event?.type === 'decision.confirm' || event?.type === 'decision.retry')) submissions.count += 1;
    expect(teamCalls('POST', '/decisions')).toHaveLength(submissions.count);
    // each decision carries the review state the member saw
    for (const call of teamCalls('POST', '/decisions')) expect(call.body).toEqual({ decision: 'waitlist', ids: [DECIDED_REQUEST.id], from: { [DECIDED_REQUEST.id]: 'received' } });
    const confirm = screen.queryByRole('button', { name: 'Confirm and send' });
    if (state.matches('previewing')) {
      expect(screen.getByText('Preparing the mails it will send…')).toBeInTheDocument();
      expect(network.waiting('preview')).toBeGreaterThan(0);
    }
    if (state.matches('confirming')) {
      // each mail, before it is sent: to, subject, text
      const mails = screen.getByRole('list', { name: 'Mails it will send' });
      expect(mails).toHaveTextContent(`To${DECIDED_REQUEST.email}`);
      expect(mails).toHaveTextContent('SubjectYour Sonde request: waitlist');
      expect(confirm).toBeEnabled();
    } else expect(confirm).not.toBeInTheDocument();
    if (state.matches('submitting')) expect(screen.getByText('Sending the decision…')).toBeInTheDocument();
    if (state.matches('done')) expect(screen.getByText(/Done\. The mails are on their way/)).toBeInTheDocument();
    // another member's decision since the page was loaded: who, what and when, in the live region
    const changedAt = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(CHANGED_AT));
    const told = screen.queryByText(`Kim Lee declined this at ${changedAt}; the request has been reloaded. Nothing of this decision was sent.`);
    if (state.matches('changed')) expect(told?.closest('[role="status"]')).toBeInTheDocument();
    else expect(told).not.toBeInTheDocument();
    if (state.matches('refused')) {
      const alert = screen.getByRole('alert');
      expect(alert).toHaveTextContent('Nothing changed');
      expect(alert).toHaveTextContent('waitlist is possible only when it is received');
    }
    if (state.matches('failed')) {
      expect(screen.getByRole('alert')).toHaveTextContent(/could not be reached|error 503|session has ended/);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
    } else expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    if (!state.matches('refused') && !state.matches('failed')) expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(context.targets.length).toBe(state.matches('idle') ? 0 : 1);
    expect(sessionEnded()).toBe(unauthorized.count);
  },
});
