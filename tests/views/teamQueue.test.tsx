import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QUEUE_SEARCH_DEBOUNCE_MS } from '#machines/teamQueueMachine';
import { TEAM_COHORTS, TEAM_REQUESTS } from '../../mocks/teamHandlers';
import { answerTeamApi, expectNoAxeViolations, queueStatus, renderConsole, teamAnswers, teamCalls } from '../support/teamConsole';

const [ada, katherine, grace, alan] = TEAM_REQUESTS;

/** The queue's table, once its first page is shown. */
async function queueTable() {
  const table = await screen.findByRole('table', { name: /requests, newest first/i });
  await within(table).findByText(ada!.fullName);
  return table;
}

/** The row of a request, by the name shown in it. */
const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('the team queue', () => {
  beforeEach(answerTeamApi);

  it('shows the first page with the columns, the counts per state and Load more', async () => {
    renderConsole('/team');
    const table = await queueTable();
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(5); // header + 4
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['', 'Received', 'Kind', 'Name and company', 'State', 'Verification', 'Due']);
    expect(within(rowOf(alan!.fullName)).getByText('Cohort 1')).toBeInTheDocument();
    // the counts of the answer beside each state
    expect(screen.getByRole('option', { name: 'Received (1)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Overdue (1)' })).toBeInTheDocument();
    expect(queueStatus()).toHaveTextContent('4 requests shown, more to load.');
    await expectNoAxeViolations(document.body);
  });

  it('counts a privacy request down in words: amber under 10 days, red under 5, "Overdue" on red', async () => {
    const { user } = renderConsole('/team');
    await queueTable();
    expect(within(rowOf(katherine!.fullName)).getByText(/3 days left/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(/Overdue by 2 days/)).toBeInTheDocument();
    expect(screen.getByText(/20 days left/)).toBeInTheDocument();
    // the cursor of the page before
    expect(new URL(teamCalls('GET', '/requests').at(-1)!.url).searchParams.get('after')).toBe('page-4');
    expect(queueStatus()).toHaveTextContent('6 requests shown.');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('sends each filter in the query string, keeps it in the address, and points the CSV link at it', async () => {
    const { user, location } = renderConsole('/team');
    await queueTable();
    await user.selectOptions(screen.getByLabelText('Kind'), 'invite');
    await user.selectOptions(screen.getByLabelText('State'), 'received');
    await user.selectOptions(screen.getByLabelText('Cohort'), 'Cohort 1');
    await waitFor(() => expect(location()).toBe('/team?kind=invite&state=received&cohort=Cohort+1'));
    const last = new URL(teamCalls('GET', '/requests').at(-1)!.url);
    expect(Object.fromEntries(last.searchParams)).toEqual({ kind: 'invite', state: 'received', cohort: 'Cohort 1' });
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/team/requests.csv?kind=invite&state=received&cohort=Cohort+1');
  });

  it('asks for a text search once the typing pauses, and opens a shared filtered address as it was', async () => {
    vi.useFakeTimers();
    const { user, location } = renderConsole('/team?kind=invite&q=gr', { fakeTimers: true });
    await screen.findByText(grace!.fullName);
    expect(screen.queryByText(ada!.fullName)).not.toBeInTheDocument();
    const search = screen.getByLabelText('Search');
    expect(search).toHaveValue('gr');
    const before = teamCalls('GET', '/requests').length;
    await user.clear(search);
    await user.type(search, 'ada');
    // nothing asked while the member types
    await act(() => vi.advanceTimersByTimeAsync(QUEUE_SEARCH_DEBOUNCE_MS - 1));
    expect(teamCalls('GET', '/requests').length - before).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await screen.findByText(ada!.fullName);
    // one call for the whole word, not one per key
    expect(teamCalls('GET', '/requests').length - before).toBe(1);
    expect(new URL(teamCalls('GET', '/requests').at(-1)!.url).searchParams.get('q')).toBe('ada');
    expect(location()).toBe('/team?kind=invite&q=ada');
  });

  it('walks by keyboard: arrows and j/k move, Space and x select, Enter opens', async () => {
    const { user, location } = renderConsole('/team');
    await queueTable();
    await user.tab(); // the search
    while (!document.activeElement?.matches('tr')) await user.tab();
    expect(document.activeElement).toBe(rowOf(ada!.fullName));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(rowOf(katherine!.fullName));
    await user.keyboard('j');
    expect(document.activeElement).toBe(rowOf(grace!.fullName));
    await user.keyboard(' ');
    expect(within(rowOf(grace!.fullName)).getByRole('checkbox')).toBeChecked();
    await user.keyboard('k{ArrowUp}x');
    expect(within(rowOf(ada!.fullName)).getByRole('checkbox')).toBeChecked();
    expect(queueStatus()).toHaveTextContent('2 selected.');
    // one row in the tab order: the one the keyboard is on
    expect(screen.getAllByRole('row').filter((row) => row.tabIndex === 0)).toEqual([rowOf(ada!.fullName)]);
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(location()).toBe(`/team/requests/${katherine!.id}`));
  });

  it('selects every invite request shown, and no privacy request', async () => {
    const { user } = renderConsole('/team');
    await queueTable();
    await user.click(screen.getByRole('checkbox', { name: 'Select every invite request shown' }));
    expect(screen.getByRole('heading', { name: '3 invite requests selected' })).toBeInTheDocument();
    expect(within(rowOf(katherine!.fullName)).queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('accepts a selection into a cohort in bulk: the mails first, then the ids and the cohort on confirm', async () => {
    const { user } = renderConsole('/team');
    await queueTable();
    await user.click(within(rowOf(ada!.fullName)).getByRole('checkbox'));
    await user.click(within(rowOf(grace!.fullName)).getByRole('checkbox'));
    const accept = screen.getByRole('button', { name: 'Accept' });
    expect(accept).toBeDisabled(); // no cohort chosen
    await user.selectOptions(screen.getByLabelText('Cohort', { selector: 'select:not([name])' }), TEAM_COHORTS[0]!.name);
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    const mails = await screen.findByRole('list', { name: 'Mails it will send' });
    expect(within(mails).getAllByRole('listitem')).toHaveLength(2);
    expect(mails).toHaveTextContent(`To${ada!.email}`);
    expect(mails).toHaveTextContent('Cohort: Cohort 1');
    expect(teamCalls('POST', '/preview')[0]!.body).toEqual({ decision: 'accept', ids: [ada!.id, grace!.id], cohort: 'Cohort 1' });
    expect(teamCalls('POST', '/decisions')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm and send' }));
    expect(await screen.findByText(/Done\. The mails are on their way/)).toBeInTheDocument();
    expect(teamCalls('POST', '/decisions').map((call) => call.body)).toEqual([{ decision: 'accept', ids: [ada!.id, grace!.id], from: { [ada!.id]: 'received', [grace!.id]: 'waitlisted' }, cohort: 'Cohort 1' }]);
    // the queue is loaded again, the selection emptied
    await waitFor(() => expect(within(rowOf(ada!.fullName)).getByRole('checkbox')).not.toBeChecked());
  });

  it('disables what the review chart refuses: an accepted request takes no decision, a full cohort no acceptance', async () => {
    const { user } = renderConsole('/team');
    await queueTable();
    await user.click(within(rowOf(alan!.fullName)).getByRole('checkbox'));
    for (const name of ['Waitlist', 'Decline', 'Mark as spam', 'Reopen']) expect(screen.getByRole('button', { name })).toBeDisabled();
    await user.click(within(rowOf(alan!.fullName)).getByRole('checkbox'));
    await user.click(within(rowOf(ada!.fullName)).getByRole('checkbox'));
    expect(screen.getByRole('button', { name: 'Waitlist' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reopen' })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Cohort', { selector: 'select:not([name])' }), 'Cohort 2');
    expect(screen.getByRole('button', { name: 'Accept' })).toBeDisabled();
  });

  it('lists the refusals of a 409 and says nothing changed', async () => {
    const { user } = renderConsole('/team');
    await queueTable();
    teamAnswers('post', '/decisions', 409, { error: 'Nothing changed', refusals: [`request ${ada!.id} is waitlisted: waitlist is possible only when it is received`] });
    await user.click(within(rowOf(ada!.fullName)).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Waitlist' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Nothing changed');
    expect(alert).toHaveTextContent(`request ${ada!.id} is waitlisted`);
  });

  it('keeps the reason typed when a decline fails, and sends it again on Try again', async () => {
    const { user } = renderConsole('/team');
    await queueTable();
    teamAnswers('post', '/decisions', 503);
    await user.click(within(rowOf(ada!.fullName)).getByRole('checkbox'));
    await user.type(screen.getByLabelText(/Reason told to the applicant/), 'Not this round');
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('error 503');
    expect(screen.getByLabelText(/Reason told to the applicant/)).toHaveValue('Not this round');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(teamCalls('POST', '/decisions')).toHaveLength(2));
    expect(teamCalls('POST', '/decisions')[1]!.body).toEqual({ decision: 'decline', ids: [ada!.id], from: { [ada!.id]: 'received' }, reason: 'Not this round' });
  });

  it('tells the session when the queue answers 401', async () => {
    teamAnswers('get', '/requests', 401, { error: 'Sign in' });
    const { sessionEnded } = renderConsole('/team');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your session has ended');
    expect(sessionEnded()).toBeGreaterThan(0);
  });

  it('says why the queue could not load, and loads it on Try again', async () => {
    teamAnswers('get', '/requests', 0);
    const { user } = renderConsole('/team');
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be reached');
    answerTeamApi(); // the server answers again
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await queueTable();
  });
});
