import { screen, waitFor, within } from '@testing-library/dom';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { SUBMIT_ENDPOINT } from '@/config/site';
import { MOCK_CLIENT_IP } from '../../mocks/handlers';
import { network } from '../support/network';
import { privacyRequestFixedFields } from '../support/submissionBody';
import { server } from '../../mocks/node';
import { renderApp } from '../renderApp';


function form() {
  return within(screen.getByRole('form', { name: 'Privacy rights request' }));
}

async function fillPrivacyRequest(user: UserEvent) {
  await user.type(form().getByRole('textbox', { name: 'Full name' }), 'Ada Lovelace');
  await user.type(form().getByRole('textbox', { name: 'Email' }), 'ada@example.com');
  await user.type(form().getByRole('textbox', { name: 'Company' }), 'Analytical Engines');
  await user.click(form().getByRole('checkbox', { name: 'Access/Know' }));
  await user.click(form().getByRole('checkbox', { name: 'Opt-Out' }));
  await user.type(form().getByRole('textbox', { name: 'Additional details' }), 'Since March.');
}

function submitButton() {
  return form().getByRole('button', { name: /Submit request|Submitting/ });
}

describe('/privacy-request (spec §3, §4, §8)', () => {
  it('has the fields of §3: name and email required, request types optional, details 4 rows', () => {
    renderApp('/privacy-request');
    expect(form().getByRole('textbox', { name: 'Full name' })).toBeRequired();
    expect(form().getByRole('textbox', { name: 'Email' })).toHaveAttribute('type', 'email');
    expect(form().getByRole('textbox', { name: 'Email' })).toBeRequired();
    expect(form().getByRole('textbox', { name: 'Company' })).not.toBeRequired();
    const types = within(form().getByRole('group', { name: 'Request type' })).getAllByRole('checkbox');
    expect(types.map((box) => (box as HTMLInputElement).value)).toEqual(['Access/Know', 'Delete', 'Correct', 'Opt-Out', 'Data Portability', 'Other']);
    for (const box of types) expect(box).not.toBeRequired();
    expect(form().getByRole('textbox', { name: 'Additional details' })).toHaveAttribute('rows', '4');
    expect(screen.getByRole('main')).toHaveTextContent('within 45 days');
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy');
  });

  it('sends the request mapped onto an invite request, then shows /thank-you', async () => {
    const { user, location } = renderApp('/privacy-request');
    await fillPrivacyRequest(user);
    await user.click(submitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(network.delivered()).toHaveLength(1);
    const { event, data } = network.delivered()[0]!;
    expect(event).toBe('invite_request');
    expect(data).toMatchObject({
      fullName: 'Ada Lovelace',
      workEmail: 'ada@example.com',
      ...privacyRequestFixedFields,
      companyName: 'Analytical Engines',
      useCaseDescription: 'CCPA Privacy Rights Request\nRequest types: Access/Know, Opt-Out\nDetails: Since March.',
      consentGiven: true,
      clientIP: MOCK_CLIENT_IP,
      browserId: expect.stringMatching(/^sonde_/),
    });
  });

  it('shows HTTP error! status: 500 in an alert after a 500, keeps every input, and a retry lands on /thank-you', async () => {
    server.use(http.post(SUBMIT_ENDPOINT, () => new HttpResponse(null, { status: 500 }), { once: true }));
    const { user, location } = renderApp('/privacy-request');
    await fillPrivacyRequest(user);
    await user.click(submitButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('HTTP error! status: 500');
    expect(location()).toBe('/privacy-request');
    expect(form().getByRole('textbox', { name: 'Full name' })).toHaveValue('Ada Lovelace');
    expect(form().getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    expect(form().getByRole('textbox', { name: 'Company' })).toHaveValue('Analytical Engines');
    expect(form().getByRole('checkbox', { name: 'Access/Know' })).toBeChecked();
    expect(form().getByRole('checkbox', { name: 'Opt-Out' })).toBeChecked();
    expect(form().getByRole('textbox', { name: 'Additional details' })).toHaveValue('Since March.');
    expect(submitButton()).toBeEnabled();
    expect(submitButton()).toHaveTextContent('Submit request');

    await user.click(submitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(network.delivered()).toHaveLength(1);
  });

  it('shows the network error’s own message', async () => {
    server.use(http.post(SUBMIT_ENDPOINT, () => HttpResponse.error()));
    const { user } = renderApp('/privacy-request');
    await fillPrivacyRequest(user);
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch');
  });

  it("reads 'Submitting...' and is disabled while pending, and a new attempt clears the old error", async () => {
    let release = () => {};
    server.use(
      http.post(SUBMIT_ENDPOINT, () => new HttpResponse(null, { status: 503 }), { once: true }),
      http.post(SUBMIT_ENDPOINT, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return new HttpResponse(null, { status: 201 });
      }),
    );
    const { user, location } = renderApp('/privacy-request');
    await fillPrivacyRequest(user);
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP error! status: 503');
    await user.click(submitButton());
    await waitFor(() => expect(submitButton()).toHaveTextContent('Submitting...'));
    expect(submitButton()).toBeDisabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    release();
    await waitFor(() => expect(location()).toBe('/thank-you'));
  });
});
