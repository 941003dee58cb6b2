import { fireEvent, screen, within } from '@testing-library/dom';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, expect, vi } from 'vitest';
import { renderApp } from '../renderApp';
import { privacyRequestModel } from './models';
import { heldNetwork, network as sent } from '../support/network';
import { describeModel } from './runner';
import { expectDraft, expectOutbox } from './formExpectations';
import { formSubmissionActions } from './formActions';
import { heldStorageWrites } from '../support/heldStorage';
import { getAllByRoleNamed } from '../support/named';
import type * as OutboxStore from '@/services/outboxStore';

// The form's storage write of a kept request is held until the path's `done: keepRequest` step, so that
// the wait for it (spec §4, §8) can be seen; it is the real write once released.
vi.mock('@/services/outboxStore', async (importOriginal) => {
  const real = await importOriginal<typeof OutboxStore>();
  const { heldStorageWrites: held } = await import('../support/heldStorage');
  return { ...real, storeKeptRequest: (request: Parameters<typeof real.storeKeptRequest>[0]) => held.hold(() => real.storeKeptRequest(request)) };
});
afterEach(() => heldStorageWrites.reset());

const form = () => within(screen.getByRole('form', { name: 'Privacy rights request' }));
const submitButton = () => form().getByRole('button', { name: /Submit request|Submitting/ });

/** The answers of the model's payload (privacyRequestPayload in ./models). */
async function fillIn(user: UserEvent) {
  // Every field is found before the first keystroke (see fields() below).
  const { fullName, email, deletion } = fields();
  if ((fullName as HTMLInputElement).value) return; // kept from a failed attempt
  await user.type(fullName, 'Ada Lovelace');
  await user.type(email, 'ada@example.com');
  await user.click(deletion);
}

/**
 * The fields the model's answers go into, found together (the text fields in one pass): an input
 * re-renders the form, which empties jsdom's cache of computed styles, and each look-up by role and name
 * would compute them all again.
 */
function fields() {
  const formElement = screen.getByRole('form', { name: 'Privacy rights request' });
  const [fullName, email] = getAllByRoleNamed(formElement, 'textbox', ['Full name', 'Email']);
  return { fullName: fullName!, email: email!, deletion: within(formElement).getByRole('checkbox', { name: 'Delete' }) };
}

describeModel(privacyRequestModel, {
  start: () => ({ ...renderApp('/privacy-request', { fakeTimers: true }), network: heldNetwork(), sentBeforeSubmit: { count: 0 } }),
  actions: {
    'form.engage': ({ user }) => user.click(form().getByRole('textbox', { name: 'Full name' })),
    'form.submit': async ({ user, sentBeforeSubmit }, before, event) => {
      sentBeforeSubmit.count = sent.submissions().length;
      if (event.trapFilled) fireEvent.input(form().getByLabelText('Leave this field empty'), { target: { value: 'bot' } });
      if (before.matches({ clientIp: 'notLookedUp' })) {
        // autofill plus a scripted or assistive submit: no focus event reaches the form
        const { fullName, email, deletion } = fields();
        fireEvent.input(fullName, { target: { value: 'Ada Lovelace' } });
        fireEvent.input(email, { target: { value: 'ada@example.com' } });
        fireEvent.click(deletion);
        fireEvent.submit(screen.getByRole('form', { name: 'Privacy rights request' }));
        return;
      }
      await fillIn(user);
      await user.click(submitButton());
    },
    ...formSubmissionActions('privacyRequest'),
    // Drafts. A change is one more character in the company; focus leaving goes outside the form.
    'form.change': async () => {
      // typed without focusing the form (as autofill does), so that the change alone drives the step
      const field = form().getByRole('textbox', { name: 'Company' }) as HTMLInputElement;
      fireEvent.input(field, { target: { value: `${field.value}x` } });
    },
    'form.blur': async () => fireEvent.focusOut(form().getByRole('textbox', { name: 'Company' }), { relatedTarget: document.body }),
  },
  expectView: async (state, { location, sentBeforeSubmit }, event) => {
    await expectOutbox(state, event);
    expectDraft(state, event, 'privacyRequest', 'company');
    if (state.matches({ form: 'submitted' })) {
      // a bot that filled the honeypot sends nothing
      if (event?.trapFilled) expect(sent.submissions()).toHaveLength(sentBeforeSubmit.count);
      expect(location()).toBe('/thank-you');
      expect(screen.getByRole('heading', { level: 1, name: 'Request received' })).toBeInTheDocument();
      return;
    }
    expect(location()).toBe('/privacy-request');
    expect(sent.lookups()).toHaveLength(state.matches({ clientIp: 'notLookedUp' }) ? 0 : 1);
    if (state.matches({ form: 'idle' })) {
      expect(submitButton()).toHaveTextContent('Submit request');
      expect(submitButton()).toBeEnabled();
      if (state.context.error) {
        // spec §8: the error in a red box; spec §4: back to idle with everything typed still there
        expect(screen.getByRole('alert')).toHaveTextContent(state.context.error);
        expect(form().getByRole('textbox', { name: 'Full name' })).toHaveValue('Ada Lovelace');
        expect(form().getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
        expect(form().getByRole('checkbox', { name: 'Delete' })).toBeChecked();
      } else {
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      }
      return;
    }
    expect(submitButton()).toHaveTextContent('Submitting...');
    expect(submitButton()).toBeDisabled();
    // a new submission clears the old error; a kept request's error shows once it is stored (spec §4, §8)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    if (state.matches({ form: { submitting: 'sending' } })) {
      expect(sent.submissions().length).toBeGreaterThan(0);
      const body = sent.submissions().at(-1)!.body as { data: object };
      // the company is what the draft steps typed (form.change), whatever the model's sample says
      expect(body.data).toMatchObject({ ...state.context.payload, companyName: expect.any(String), clientIP: state.context.clientIp });
    }
  },
});
