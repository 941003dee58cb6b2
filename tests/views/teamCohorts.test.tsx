import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { answerTeamApi, expectNoAxeViolations, renderConsole, teamAnswers, teamCalls } from '../support/teamConsole';

describe('the cohorts page', () => {
  beforeEach(answerTeamApi);

  it('lists each cohort with its start date and how full it is', async () => {
    renderConsole('/team/cohorts');
    const list = await screen.findByRole('list', { name: 'Cohorts' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Cohort 1');
    expect(first).toHaveTextContent('12 of 25');
    expect(within(first!).getByRole('meter', { name: 'Cohort 1: 12 of 25' })).toHaveAttribute('value', '12');
    expect(second).toHaveTextContent('2 of 2');
    expect(within(first!).getByText(/Starts/).querySelector('time')).toHaveAttribute('datetime', '2027-01-15');
    await expectNoAxeViolations(document.body);
  });

  it('shows each field error beside its field and sends nothing', async () => {
    const { user } = renderConsole('/team/cohorts');
    await screen.findByRole('list', { name: 'Cohorts' });
    await user.type(screen.getByLabelText(/Capacity/), '0');
    await user.click(screen.getByRole('button', { name: 'Create cohort' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Give the cohort a name.');
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Start date')).toHaveAccessibleDescription('Give the date it starts.');
    expect(screen.getByLabelText(/Capacity/)).toHaveAccessibleDescription(/at least 1/);
    expect(teamCalls('POST', '/cohorts')).toHaveLength(0);
    await expectNoAxeViolations(document.body);
  });

  it('creates a cohort without a limit, lists it and empties the form', async () => {
    const { user } = renderConsole('/team/cohorts');
    await screen.findByRole('list', { name: 'Cohorts' });
    await user.type(screen.getByLabelText('Name'), 'Cohort 3');
    await user.type(screen.getByLabelText('Start date'), '2027-06-01');
    await user.click(screen.getByRole('button', { name: 'Create cohort' }));
    expect(await screen.findByText('0 accepted, no limit')).toBeInTheDocument();
    expect(teamCalls('POST', '/cohorts').map((call) => call.body)).toEqual([{ name: 'Cohort 3', startsOn: '2027-06-01', capacity: null }]);
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue(''));
  });

  it('says a name is taken (409) beside the name, keeping what was typed', async () => {
    const { user } = renderConsole('/team/cohorts');
    await screen.findByRole('list', { name: 'Cohorts' });
    await user.type(screen.getByLabelText('Name'), 'Cohort 1');
    await user.type(screen.getByLabelText('Start date'), '2027-06-01');
    await user.type(screen.getByLabelText(/Capacity/), '10');
    await user.click(screen.getByRole('button', { name: 'Create cohort' }));
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('A cohort of that name exists already.'));
    expect(screen.getByLabelText('Name')).toHaveValue('Cohort 1');
    expect(teamCalls('POST', '/cohorts')[0]!.body).toEqual({ name: 'Cohort 1', startsOn: '2027-06-01', capacity: 10 });
  });

  it('tells the session when the cohorts answer 401', async () => {
    teamAnswers('get', '/cohorts', 401);
    const { sessionEnded } = renderConsole('/team/cohorts');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your session has ended');
    expect(sessionEnded()).toBeGreaterThan(0);
  });
});
