import { act } from '@testing-library/react';
import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS, SUBMIT_ENDPOINT } from '@/config/site';
import { TEXT_LIMITS } from '#shared/submission';
import { ipLookupUrl, MOCK_CLIENT_IP } from '../../mocks/handlers';
import { holdSubmissions, network } from '../support/network';
import { server } from '../../mocks/node';
import { fillRequiredInviteFields, inviteFormElement, inviteSubmitButton, visitor } from '../inviteFixtures';
import { renderApp } from '../renderApp';
import { INVITE_PAYLOAD_FIELDS } from '../support/inviteFields';

type Body = { event: string; data: Record<string, unknown> };

describe('invite form (spec §3, §5)', () => {
  it('has every field of §3 in order, labelled and named after the payload', () => {
    renderApp('/');
    const form = inviteFormElement();
    const names = [...form.querySelectorAll('input, textarea')].map((el) => el.getAttribute('name'));
    const unique = names.filter((name, i) => names.indexOf(name) === i);
    // every payload field of §3 in its order; the honeypot (not a payload field, checked below) before consent
    expect(unique).toEqual([...INVITE_PAYLOAD_FIELDS.filter((name) => name !== 'consentGiven'), 'leaveEmpty', 'consentGiven']);
    const f = within(form);
    for (const name of ['fullName', 'workEmail', 'roleTitle', 'companyName', 'useCaseDescription', 'estimatedMonthlyQueries', 'peakQPS']) {
      expect(form.querySelector(`[name="${name}"]`), name).toBeRequired();
    }
    for (const name of ['websiteUrl', 'targetLatency', 'keyRegionsLanguages', 'desiredStartDate', 'budgetRange', 'notes']) {
      expect(form.querySelector(`[name="${name}"]`), name).not.toBeRequired();
    }
    expect(f.getByRole('textbox', { name: 'Work email' })).toHaveAttribute('type', 'email');
    expect(f.getByRole('textbox', { name: /Company website/ })).toHaveAttribute('type', 'url');
    expect(f.getByLabelText('Desired start date')).toHaveAttribute('type', 'date');
    expect(f.getByRole('textbox', { name: /What will you build/ })).toHaveAttribute('rows', '4');
    expect(f.getByRole('textbox', { name: 'Anything else?' })).toHaveAttribute('rows', '3');
    expect(f.getByRole('textbox', { name: 'Estimated monthly queries' })).toHaveAttribute('placeholder', '5M, 50M, 100M+');
    expect(f.getByRole('textbox', { name: 'Peak queries per second (QPS)' })).toHaveAttribute('placeholder', '100 QPS, 1000 QPS');
    expect(f.getByRole('textbox', { name: 'Target latency' })).toHaveAttribute('placeholder', '50ms/100ms');
    expect(f.getByRole('textbox', { name: 'Key regions and languages' })).toHaveAttribute('placeholder', 'US, EU, APAC; EN, FR, DE');
    expect(f.getByRole('textbox', { name: 'Budget range' })).toHaveAttribute('placeholder', '$1k-5k/mo, $10k+/mo');

    // spec §3: the options of each checkbox group, by the group's label, in the spec's order; no group is required
    const checkboxOptions: Record<string, string[]> = {
      'Primary workloads': ['Agentic automation', 'RAG', 'Monitoring & alerts', 'Research & analysis', 'Other'],
      'Must-have capabilities': [
        'Tunable ranking',
        'Hybrid retrieval',
        'Streaming results',
        'Multilingual coverage',
        'Logs & exports',
        'Compliance addendum',
      ],
    };
    for (const [group, options] of Object.entries(checkboxOptions)) {
      const boxes = within(f.getByRole('group', { name: group })).getAllByRole('checkbox');
      expect(boxes.map((box) => (box as HTMLInputElement).value), group).toEqual(options);
      for (const box of boxes) expect(box, group).not.toBeRequired();
    }
    const consent = f.getByRole('checkbox', {
      name: 'I agree to be contacted about the beta and accept the trial terms/privacy policy.',
    });
    expect(consent).toBeRequired();
    expect(f.getByRole('link', { name: 'terms' })).toHaveAttribute('href', '/terms');
    expect(f.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy');
  });

  it('sends nothing while a required field is empty (the browser enforces §5)', async () => {
    const { user, location } = renderApp('/');
    await user.type(within(inviteFormElement()).getByRole('textbox', { name: 'Full name' }), 'Ada');
    await user.click(inviteSubmitButton());
    expect(location()).toBe('/');
    expect(network.delivered()).toHaveLength(0);
  });

  it('limits every text field to the server\'s length (DESIGN.md §4) and carries a honeypot no visitor meets', () => {
    renderApp('/');
    const form = inviteFormElement();
    const limit = (name: string) => (form.querySelector(`[name="${name}"]`) as HTMLInputElement).maxLength;
    expect(['fullName', 'roleTitle', 'companyName', 'estimatedMonthlyQueries', 'peakQPS', 'targetLatency', 'keyRegionsLanguages', 'budgetRange'].map(limit)).toEqual(Array(8).fill(TEXT_LIMITS.short));
    expect(limit('workEmail')).toBe(TEXT_LIMITS.email);
    expect(limit('websiteUrl')).toBe(TEXT_LIMITS.url);
    expect(limit('useCaseDescription')).toBe(TEXT_LIMITS.long);
    expect(limit('notes')).toBe(TEXT_LIMITS.long);
    const trap = within(form).getByLabelText('Leave this field empty');
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap).toHaveAttribute('autocomplete', 'off');
    expect(trap).not.toBeRequired();
  });

  it('refuses a required field of only spaces with the browser\'s own message', async () => {
    const { user } = renderApp('/');
    const fullName = within(inviteFormElement()).getByRole('textbox', { name: 'Full name' }) as HTMLInputElement;
    await user.type(fullName, '   ');
    expect(fullName).toBeInvalid();
    expect(fullName.validationMessage).toBe('Please fill out this field.');
    await user.type(fullName, 'Ada');
    expect(fullName).toBeValid();
  });

  it('tells the visitor of a character the server would refuse, on the field, and sends nothing', async () => {
    const { user } = renderApp('/');
    const form = within(inviteFormElement());
    await fillRequiredInviteFields(user);
    const fullName = form.getByRole('textbox', { name: 'Full name' }) as HTMLInputElement;
    await user.clear(fullName);
    await user.click(fullName);
    await user.paste('Ada \u202egpj.exe');
    expect(fullName).toBeInvalid();
    expect(fullName.validationMessage).toBe('This field contains a text-direction control character (U+202E).');
    await user.clear(fullName);
    await user.paste('\u200b\u3164');
    expect(fullName.validationMessage).toBe('Please fill out this field.');
    const website = form.getByRole('textbox', { name: 'Company website' }) as HTMLInputElement;
    await user.click(website);
    await user.paste('https://example.com/\u001b[2J');
    expect(website.validationMessage).toBe('This field contains a control character (U+001B).');
    await user.click(inviteSubmitButton());
    expect(network.submissions()).toEqual([]);
    // Text that grows under NFC (U+0958 becomes two code units) is measured as the server stores it.
    await user.clear(fullName);
    await user.paste('\u0958'.repeat(150));
    expect(fullName.validationMessage).toBe('This field is longer than 200 characters once stored.');
    // Line breaks and tabs stay allowed in the free text.
    const description = form.getByRole('textbox', { name: /What will you build with Sonde/ }) as HTMLTextAreaElement;
    await user.clear(description);
    await user.click(description);
    await user.paste('line one\n\tline two');
    expect(description).toBeValid();
  });

  it('sends nothing when the honeypot is filled, and still shows /thank-you', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    fireEvent.input(within(inviteFormElement()).getByLabelText('Leave this field empty'), { target: { value: 'https://spam.example' } });
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(network.submissions()).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('honeypot'));
  });

  it('keeps a draft for the tab: fill, leave for /privacy, come back: every value is there; once sent, the draft is gone', async () => {
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    const form = within(inviteFormElement());
    await user.click(form.getByRole('checkbox', { name: 'RAG' }));
    await user.type(form.getByRole('textbox', { name: 'Anything else?' }), 'Two lines\nof notes');
    // the consent label's links open in a new tab, so the visitor leaves by the footer here
    expect(form.getByRole('link', { name: 'terms' })).toHaveAttribute('target', '_blank');
    await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Privacy Policy' }));
    expect(location()).toBe('/privacy');
    await user.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Request invite' }));

    const back = within(inviteFormElement());
    expect(back.getByRole('textbox', { name: 'Full name' })).toHaveValue(visitor.fullName);
    expect(back.getByRole('textbox', { name: 'Work email' })).toHaveValue(visitor.workEmail);
    expect(back.getByRole('textbox', { name: 'Peak queries per second (QPS)' })).toHaveValue(visitor.peakQPS);
    expect(back.getByRole('textbox', { name: 'Anything else?' })).toHaveValue('Two lines\nof notes');
    expect(back.getByRole('checkbox', { name: 'RAG' })).toBeChecked();
    expect(back.getByRole('checkbox', { name: /I agree to be contacted/ })).toBeChecked();
    expect(back.getByLabelText('Leave this field empty')).toHaveValue('');

    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(network.delivered()[0]!.data).toMatchObject({ fullName: visitor.fullName, notes: 'Two lines\nof notes', primaryWorkloads: ['RAG'] });
    expect(sessionStorage.getItem('sonde.draft.invite')).toBeNull();
  });

  it('POSTs the payload with the client metadata, leaving empty optional fields out, then shows /thank-you', async () => {
    const { user, location } = renderApp('/');
    const form = within(inviteFormElement());
    await fillRequiredInviteFields(user);
    await user.click(form.getByRole('checkbox', { name: 'RAG' }));
    await user.click(form.getByRole('checkbox', { name: 'Agentic automation' }));
    await user.click(form.getByRole('checkbox', { name: 'Logs & exports' }));
    await user.type(form.getByRole('textbox', { name: 'Target latency' }), '50ms');
    await user.type(form.getByLabelText('Desired start date'), '2027-01-15');
    await user.click(inviteSubmitButton());

    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(screen.getByRole('heading', { level: 1, name: 'Request received' })).toBeInTheDocument();
    expect(network.delivered()).toHaveLength(1);
    const body = network.delivered()[0]!;
    expect(body.event).toBe('invite_request');
    expect(body.data).toEqual({
      ...visitor,
      primaryWorkloads: ['Agentic automation', 'RAG'],
      mustHaveCapabilities: ['Logs & exports'],
      targetLatency: '50ms',
      desiredStartDate: '2027-01-15',
      consentGiven: true,
      submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      clientIP: MOCK_CLIENT_IP,
      browserId: localStorage.getItem(STORAGE_KEYS.browserId),
      userAgent: navigator.userAgent,
      browserLanguage: navigator.language,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      screenResolution: expect.stringMatching(/^\d+x\d+$/),
    });
    for (const key of ['websiteUrl', 'keyRegionsLanguages', 'budgetRange', 'notes']) expect(body.data).not.toHaveProperty(key);
  });

  it("reads 'Submitting...' and is disabled while the request is pending; one press, one request", async () => {
    const { release } = holdSubmissions();
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(network.submissions()).toHaveLength(1));
    const button = inviteSubmitButton();
    expect(button).toHaveTextContent('Submitting...');
    expect(button).toBeDisabled();
    await user.click(button);
    act(() => {
      inviteFormElement().dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(network.submissions()).toHaveLength(1);
    release();
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(network.submissions()).toHaveLength(1);
  });

  it('goes to /thank-you after a 500 (the error is not shown, spec §8)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post(SUBMIT_ENDPOINT, () => new HttpResponse(null, { status: 500 })));
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(error).toHaveBeenCalledWith('[invite] submission failed:', 'HTTP error! status: 500');
  });

  it('goes to /thank-you after a network error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.post(SUBMIT_ENDPOINT, () => HttpResponse.error()));
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(error).toHaveBeenCalledWith('[invite] submission failed:', expect.stringMatching(/fetch/i));
  });

  it('sends clientIP null when the IP service fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.use(http.get(ipLookupUrl, () => new HttpResponse('nope', { status: 503 })));
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect((network.delivered()[0]!).data.clientIP).toBeNull();
  });

  it('waits at most 5000 ms for a hanging IP service, then sends clientIP null', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.use(http.get(ipLookupUrl, () => delay('infinite')));
    holdSubmissions();
    const { user } = renderApp('/', { fakeTimers: true });
    await user.click(within(inviteFormElement()).getByRole('textbox', { name: 'Full name' }));
    // The lookup started on first focus: filling the form takes no fake time, so it has not answered yet.
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    expect(inviteSubmitButton()).toHaveTextContent('Submitting...');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4900);
    });
    expect(network.submissions()).toHaveLength(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    await vi.waitFor(() => expect(network.submissions()).toHaveLength(1));
    await vi.waitFor(() => expect((network.submissions()[0]!.body as Body).data.clientIP).toBeNull());
  });

  it('reuses the browserId across two submissions', async () => {
    const first = renderApp('/');
    await fillRequiredInviteFields(first.user);
    await first.user.click(inviteSubmitButton());
    await waitFor(() => expect(first.location()).toBe('/thank-you'));
    first.unmount();
    const second = renderApp('/');
    await fillRequiredInviteFields(second.user, { fullName: 'Grace Hopper' });
    await second.user.click(inviteSubmitButton());
    await waitFor(() => expect(second.location()).toBe('/thank-you'));
    const [a, b] = network.delivered();
    expect(b!.data.fullName).toBe('Grace Hopper');
    expect(b!.data.browserId).toBe(a!.data.browserId);
    expect(a!.data.browserId).toMatch(/^sonde_[0-9a-f]{16}_/);
  });

  it('sends a temporary browserId when local storage throws', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect((network.delivered()[0]!).data.browserId).toMatch(/^sonde_tmp_[0-9a-f]{16}_/);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('temporary browserId'), expect.anything());
  });
});
