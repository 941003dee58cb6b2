import { screen, within } from '@testing-library/dom';
import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { QUEUE_SEARCH_DEBOUNCE_MS, queueQueryOf, type TeamQueueContext } from '#machines/teamQueueMachine';
import type { TeamApiError } from '@/services/teamApi';
import { TEAM_REQUESTS } from '../../mocks/teamHandlers';
import { answerTeamApi, queueStatus, renderConsole, teamCalls } from '../support/teamConsole';
import { holdTeamCalls } from '../support/teamNetwork';
import { teamQueueModel } from './models';
import { describeModel } from './runner';
import { elapse } from './steps';

/** Answers the held queue call as a model event says: the page, a status, or no answer at all. */
function answer(network: ReturnType<typeof holdTeamCalls>, event: AnyEventObject) {
  if (event.type.startsWith('xstate.done.')) {
    const output = event.output as { page?: unknown };
    return network.answer('queue', 200, output.page ?? output);
  }
  const error = (event as { error?: TeamApiError }).error;
  if (!error || error.status === null) return network.fail('queue');
  return network.answer('queue', error.status, { error: error.message });
}

const rowCheckbox = (name: string) => within(screen.getByText(name).closest('tr')!).getByRole('checkbox');

describeModel(teamQueueModel, {
  start: () => {
    answerTeamApi();
    const network = holdTeamCalls();
    // the filters the member chose, as the driver chose them (the model's states do not tell filters apart)
    const chosen: { kind?: 'invite' | 'privacy'; q?: string } = {};
    return { ...renderConsole('/team', { fakeTimers: true }), network, unauthorized: { count: 0 }, chosen };
  },
  actions: {
    'xstate.done.actor.loadQueue': async ({ network }, _before, event) => answer(network, event),
    'xstate.error.actor.loadQueue': async ({ network, unauthorized }, _before, event) => {
      if ((event as { error?: TeamApiError }).error?.status === 401) unauthorized.count += 1;
      answer(network, event);
    },
    'xstate.done.actor.loadMore': async ({ network }, _before, event) => answer(network, event),
    'xstate.error.actor.loadMore': async ({ network, unauthorized }, _before, event) => {
      if ((event as { error?: TeamApiError }).error?.status === 401) unauthorized.count += 1;
      answer(network, event);
    },
    'queue.filter': ({ user, chosen }) => {
      chosen.kind = chosen.kind === 'invite' ? 'privacy' : 'invite';
      return user.selectOptions(screen.getByLabelText('Kind'), chosen.kind);
    },
    'queue.search': ({ user, chosen }) => {
      chosen.q = `${chosen.q ?? ''}a`;
      return user.type(screen.getByLabelText('Search'), 'a');
    },
    'xstate.after.searchDebounce.teamQueue.debouncing': () => elapse(QUEUE_SEARCH_DEBOUNCE_MS),
    'queue.loadMore': ({ user }) => user.click(screen.getByRole('button', { name: 'Load more' })),
    'queue.retry': ({ user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
    'queue.reload': ({ user }) => user.click(screen.getByRole('button', { name: 'Refresh' })),
    'queue.toggle': ({ user }) => user.click(rowCheckbox(TEAM_REQUESTS[0]!.fullName)),
    'queue.selectAll': ({ user }) => user.click(screen.getByRole('checkbox', { name: 'Select every invite request shown' })),
    'queue.clearSelection': ({ user }) => user.click(screen.getByRole('button', { name: 'Clear the selection' })),
  },
  expectView: (state, { location, network, sessionEnded, unauthorized, chosen }) => {
    const context = state.context as TeamQueueContext;
    const query = queueQueryOf(chosen);
    // the filters are in the address, in the CSV link and in the query of the calls
    expect(location()).toBe(`/team${query ? `?${query}` : ''}`);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/api/team/requests.csv${query ? `?${query}` : ''}`);
    const calls = teamCalls('GET', '/requests');
    if (state.matches('loading')) {
      expect(network.waiting('queue')).toBeGreaterThan(0);
      expect(new URL(calls.at(-1)!.url).search).toBe(query ? `?${query}` : '');
    }
    // while the member types, the search is not asked yet (each search adds a letter: never sent before)
    if (state.matches('debouncing')) expect(calls.filter((call) => new URL(call.url).searchParams.get('q') === chosen.q)).toEqual([]);
    // the live region says what the queue is doing, and what it shows
    const status = queueStatus();
    if (state.matches('loading') || state.matches('debouncing')) expect(status).toHaveTextContent('Loading requests…');
    if (state.matches('loadingMore')) {
      expect(status).toHaveTextContent('Loading more requests…');
      expect(screen.getByRole('button', { name: 'Loading more…' })).toBeDisabled();
      expect(new URL(calls.at(-1)!.url).searchParams.get('after')).toBe(context.next);
    }
    if (state.matches('ready')) {
      expect(status).toHaveTextContent(`${context.requests.length} requests shown${context.next ? ', more to load' : ''}.`);
      if (context.selected.length > 0) expect(status).toHaveTextContent(/\d selected\./);
      else expect(status).not.toHaveTextContent('selected');
      expect(screen.queryByRole('button', { name: 'Load more' }) !== null).toBe(context.next !== null);
    }
    if (context.error) expect(screen.getByRole('alert')).toHaveTextContent(/could not be reached|error 503|session has ended/);
    else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    if (state.matches('failed')) {
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
    } else {
      // the rows shown, and the ones selected
      const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(context.requests.length);
      const checked = rows.filter((row) => within(row).queryByRole('checkbox')?.matches(':checked'));
      expect(checked.length > 0).toBe(context.selected.length > 0);
      // only invite requests are selected (a bulk decision takes no privacy request)
      const invites = new Set(TEAM_REQUESTS.filter((request) => request.kind === 'invite').map((request) => request.id));
      for (const row of checked) expect(invites.has(row.dataset.requestId ?? '')).toBe(true);
    }
    // the session hears of each 401, and of nothing else
    expect(sessionEnded()).toBe(unauthorized.count);
  },
});
