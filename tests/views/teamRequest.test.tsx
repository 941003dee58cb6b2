import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { TEAM_REQUESTS } from '../../mocks/teamHandlers';
import { answerTeamApi, expectNoAxeViolations, renderConsole, teamAnswers, teamCalls } from '../support/teamConsole';

const [ada, katherine, , alan, dorothy, mary] = TEAM_REQUESTS;
const pageOf = (id: string) => `/team/requests/${id}`;

describe("a request's page", () => {
  beforeEach(answerTeamApi);

  it('shows every field as submitted as inert text, the client metadata apart, the other requests of its address and of its mailbox apart, and the timeline', async () => {
    renderConsole(pageOf(ada!.id));
    expect(await screen.findByRole('heading', { level: 1, name: ada!.fullName })).toBeInTheDocument();
    const fields = screen.getByLabelText('Fields as submitted');
    expect(screen.getByLabelText('Fields as submitted')).toHaveTextContent('<img src=x onerror="alert(1)"> Searching papers');
    expect(fields.querySelector('img')).toBeNull();
    expect(document.querySelector('main img')).toBeNull();
    expect(screen.getByLabelText('Metadata the browser sent')).toHaveTextContent('Client IP203.0.113.7');
    expect(screen.getByLabelText('Fields as submitted')).not.toHaveTextContent('203.0.113.7');
    const address = screen.getByRole('heading', { name: 'Other requests from this address' }).parentElement!;
    expect(within(address).getByRole('link')).toHaveAttribute('href', '/team/requests/00000000-0000-4000-8000-000000000099');
    // another spelling of the mailbox is labelled as what it is, with the address it came from, to open on its own
    const spellings = screen.getByRole('heading', { name: 'Other spellings that may be the same person' }).parentElement!;
    expect(within(spellings).getByRole('link')).toHaveAttribute('href', '/team/requests/00000000-0000-4000-8000-000000000098');
    expect(spellings).toHaveTextContent(`from ${ada!.email.toLowerCase().replace('@', '+old@')}, received`);
    expect(spellings).toHaveTextContent("Their data is not in this request's export or erasure");
    const timeline = screen.getByRole('heading', { name: 'Timeline' }).parentElement!;
    expect(timeline).toHaveTextContent('Delivery: delivered');
    expect(timeline).toHaveTextContent('By: Grace · Text: Looks like a research team.');
    await expectNoAxeViolations(document.body);
  });

  it('adds a note to the timeline and empties the box', async () => {
    const { user } = renderConsole(pageOf(ada!.id));
    const box = await screen.findByLabelText(/Note \(kept in the timeline/);
    expect(screen.getByRole('button', { name: 'Add note' })).toBeDisabled();
    await user.type(box, 'Called them: a research lab.');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(box).toHaveValue(''));
    expect(teamCalls('POST', '/notes').map((call) => call.body)).toEqual([{ requestId: ada!.id, text: 'Called them: a research lab.' }]);
    // the timeline is loaded again
    await waitFor(() => expect(teamCalls('GET', `/requests/${ada!.id}`).length).toBeGreaterThanOrEqual(2));
  });

  it('keeps a note that was not added, and says why', async () => {
    const { user } = renderConsole(pageOf(ada!.id));
    teamAnswers('post', '/notes', 503);
    const box = await screen.findByLabelText(/Note \(kept in the timeline/);
    await user.type(box, 'Keep me');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('error 503');
    expect(box).toHaveValue('Keep me');
  });

  it('enables only what the review chart allows on an accepted request: nothing', async () => {
    renderConsole(pageOf(alan!.id));
    await screen.findByRole('heading', { level: 1, name: alan!.fullName });
    for (const name of ['Accept', 'Waitlist', 'Decline', 'Mark as spam', 'Reopen']) expect(screen.getByRole('button', { name })).toBeDisabled();
  });

  it("shows a privacy step's mail before it is confirmed, then takes it", async () => {
    const { user } = renderConsole(pageOf(katherine!.id));
    await screen.findByRole('heading', { level: 1, name: katherine!.fullName });
    await user.type(screen.getByLabelText(/Reason for the extension/), 'The export takes longer');
    await user.click(screen.getByRole('button', { name: 'Extend by 45 days' }));
    const mails = await screen.findByRole('list', { name: 'Mails it will send' });
    expect(mails).toHaveTextContent(`To${katherine!.email}`);
    expect(teamCalls('POST', '/privacy/extend')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm and send' }));
    await screen.findByText(/Done\./);
    expect(teamCalls('POST', '/privacy/extend').map((call) => call.body)).toEqual([{ id: katherine!.id, from: 'unverified', reason: 'The export takes longer' }]);
  });

  it('says who decided a request meanwhile and when, in the live region, and loads it again when its decision is refused as stale (409)', async () => {
    const at = new Date(new Date().setHours(14, 2, 0, 0)).toISOString();
    teamAnswers('post', '/decisions', 409, {
      error: `Nothing changed: request ${ada!.id} is declined, not received as seen: declined by Kim Lee at ${at}`,
      refusals: [`request ${ada!.id} is declined, not received as seen: declined by Kim Lee at ${at}`],
      changed: [{ id: ada!.id, seen: 'received', state: 'declined', action: 'declined', by: 'Kim Lee', at }],
    });
    const { user } = renderConsole(pageOf(ada!.id));
    await screen.findByRole('heading', { level: 1, name: ada!.fullName });
    const loaded = teamCalls('GET', `/requests/${ada!.id}`).length;
    await user.click(screen.getByRole('button', { name: 'Waitlist' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(at));
    const told = await screen.findByText(`Kim Lee declined this at ${time}; the request has been reloaded. Nothing of this decision was sent.`);
    expect(told.closest('[role="status"]')).toBeInTheDocument();
    expect(teamCalls('POST', '/decisions').map((call) => call.body)).toEqual([{ decision: 'waitlist', ids: [ada!.id], from: { [ada!.id]: 'received' } }]);
    await waitFor(() => expect(teamCalls('GET', `/requests/${ada!.id}`)).toHaveLength(loaded + 1));
    expect(screen.queryByText(/Done\./)).not.toBeInTheDocument();
  });

  it('says "no mail" for a verification, and sends it on confirm', async () => {
    const { user } = renderConsole(pageOf(katherine!.id));
    await screen.findByRole('heading', { level: 1, name: katherine!.fullName });
    await user.click(screen.getByRole('button', { name: 'Mark verified' }));
    expect(await screen.findByText('No mail is sent.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm and send' }));
    await screen.findByText(/Done\./);
    expect(teamCalls('POST', '/privacy/verify').map((call) => call.body)).toEqual([{ id: katherine!.id, from: 'unverified' }]);
  });

  it("enables the privacy steps from the course's chart: no full answer before verification, no basis-less denial, no data of the unverified", async () => {
    const { user } = renderConsole(pageOf(katherine!.id));
    await screen.findByRole('heading', { level: 1, name: katherine!.fullName });
    const respond = screen.getByRole('button', { name: 'Respond' });
    expect(respond).toBeDisabled(); // complied, unverified (11 CCR §7060)
    await user.click(screen.getByRole('radio', { name: 'Denied' }));
    expect(respond).toBeDisabled(); // no basis
    await user.type(screen.getByLabelText('Basis or reason'), 'We could not verify the request');
    expect(respond).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: /Attach the subject's export/ }));
    expect(respond).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Extend by 45 days' })).toBeDisabled(); // no reason yet
  });

  it('answers a verified request in full with the export attached, and refuses verifying it again', async () => {
    const { user } = renderConsole(pageOf(dorothy!.id));
    await screen.findByRole('heading', { level: 1, name: dorothy!.fullName });
    expect(screen.getByRole('button', { name: 'Mark verified' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /Attach the subject's export/ }));
    await user.click(screen.getByRole('button', { name: 'Respond' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    await screen.findByText(/Done\./);
    expect(teamCalls('POST', '/preview')[0]!.body).toEqual({ decision: 'respond', ids: [dorothy!.id], outcome: 'complied', attachSubject: true });
    expect(teamCalls('POST', '/privacy/respond').map((call) => call.body)).toEqual([{ id: dorothy!.id, from: 'verified', outcome: 'complied', attachSubject: true }]);
  });

  it('refuses verifying or extending an overdue request (§7021(b))', async () => {
    const { user } = renderConsole(pageOf(mary!.id));
    await screen.findByRole('heading', { level: 1, name: mary!.fullName });
    expect(screen.getByRole('button', { name: 'Mark verified' })).toBeDisabled();
    await user.type(screen.getByLabelText(/Reason for the extension/), 'Late');
    expect(screen.getByRole('button', { name: 'Extend by 45 days' })).toBeDisabled();
    expect(screen.getByText(/Overdue by 2 days/)).toBeInTheDocument();
  });

  it('says there is no such request (404)', async () => {
    renderConsole(pageOf('00000000-0000-4000-8000-0000000000ff'));
    expect(await screen.findByRole('heading', { level: 1, name: 'No such request' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the queue' })).toHaveAttribute('href', '/team');
  });

  it('says why the request could not load, loads it on Try again, and tells the session of a 401', async () => {
    teamAnswers('get', '/requests/:id', 503);
    const { user, sessionEnded } = renderConsole(pageOf(ada!.id));
    expect(await screen.findByRole('alert')).toHaveTextContent('error 503');
    expect(sessionEnded()).toBe(0);
    teamAnswers('get', '/requests/:id', 401);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(sessionEnded()).toBeGreaterThan(0));
    expect(screen.getByRole('alert')).toHaveTextContent('Your session has ended');
  });
});
