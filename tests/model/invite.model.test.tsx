import { fireEvent, screen, within } from '@testing-library/dom';
import { afterEach, expect, vi } from 'vitest';
import { fillRequiredInviteFields, inviteFormElement, inviteSubmitButton, requiredInviteAnswers, visitor } from '../inviteFixtures';
import { renderApp } from '../renderApp';
import { inviteModel } from './models';
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

/** Sets the required answers and submits without a focus event: autofill plus a scripted or assistive submit. */
function autofillAndSubmit() {
  const form = within(inviteFormElement());
  const answers = requiredInviteAnswers(visitor);
  // Every field is found before the first input, in one pass: an input re-renders the form, which empties
  // jsdom's cache of computed styles, and each look-up by role and name would compute them all again.
  const boxes = getAllByRoleNamed(inviteFormElement(), 'textbox', answers.map(([label]) => label));
  const fields = answers.map(([, value], at) => [boxes[at]!, value] as const);
  const consent = form.getByRole('checkbox', { name: /I agree to be contacted/ });
  for (const [field, value] of fields) fireEvent.input(field, { target: { value } });
  fireEvent.click(consent);
  fireEvent.submit(inviteFormElement());
}

describeModel(inviteModel, {
  start: () => ({ ...renderApp('/', { fakeTimers: true }), network: heldNetwork() }),
  actions: {
    'form.engage': ({ user }) => user.click(within(inviteFormElement()).getByRole('textbox', { name: 'Full name' })),
    'form.submit': async ({ user }, before, event) => {
      if (event.trapFilled) fireEvent.input(within(inviteFormElement()).getByLabelText('Leave this field empty'), { target: { value: 'bot' } });
      if (before.matches({ clientIp: 'notLookedUp' })) return autofillAndSubmit();
      await fillRequiredInviteFields(user);
      await user.click(inviteSubmitButton());
    },
    ...formSubmissionActions('invite'),
    // Drafts. A change is one more character in the notes; focus leaving goes to a link outside the form.
    'form.change': async () => {
      // typed without focusing the form (as autofill does), so that the change alone drives the step
      const field = within(inviteFormElement()).getByRole('textbox', { name: 'Anything else?' }) as HTMLInputElement;
      fireEvent.input(field, { target: { value: `${field.value}x` } });
    },
    'form.blur': async () => fireEvent.focusOut(within(inviteFormElement()).getByRole('textbox', { name: 'Anything else?' }), { relatedTarget: document.body }),
  },
  expectView: async (state, { location }, event) => {
    await expectOutbox(state, event);
    expectDraft(state, event, 'invite', 'notes');
    if (state.matches({ form: 'submitted' })) {
      // spec §4: /thank-you whether the call succeeded or not; the error is not shown (spec §8)
      expect(location()).toBe('/thank-you');
      expect(screen.getByRole('heading', { level: 1, name: 'Request received' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      // a bot that filled the honeypot sends nothing
      // (the payload is stored only on the way to sending it)
      expect(sent.submissions()).toHaveLength(state.context.payload === null ? 0 : 1);
      return;
    }
    expect(location()).toBe('/');
    const button = inviteSubmitButton();
    if (state.matches({ form: 'idle' })) {
      expect(button).toHaveTextContent('Request invite');
      expect(button).toBeEnabled();
    } else {
      expect(button).toHaveTextContent('Submitting...');
      expect(button).toBeDisabled();
    }
    expect(sent.lookups()).toHaveLength(state.matches({ clientIp: 'notLookedUp' }) ? 0 : 1);
    if (state.matches({ form: { submitting: 'sending' } }) || state.matches({ form: { submitting: 'keeping' } })) {
      expect(sent.submissions()).toHaveLength(1);
      expect(sent.submissions()[0]!.body).toMatchObject({ event: 'invite_request', data: { clientIP: state.context.clientIp } });
    } else {
      expect(sent.submissions()).toHaveLength(0);
    }
  },
});
