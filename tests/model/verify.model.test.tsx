import { screen, within } from '@testing-library/dom';
import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { VERIFICATION_TIMEOUT_MS } from '@/config/site';
import { verifyPage as copy } from '@/content/verifyPrivacyRequest';
import { VERIFY_FALLBACK_ERROR, VERIFY_TIMEOUT_ERROR, type VerifyInput } from '#machines/verifyMachine';
import { renderApp } from '../renderApp';
import { heldVerification, SAMPLE_TOKEN } from '../support/network';
import { statusOf, verifyModel } from './models';
import { describeModel } from './runner';
import { elapse } from './steps';

const PAGE = '/privacy-request/verify';

/** What the held call of `kind` is answered with, for a model event. */
function answer(network: ReturnType<typeof heldVerification>, kind: 'lookUp' | 'confirm', event: AnyEventObject) {
  if (event.type.startsWith('xstate.done.')) return network.answer(kind, 200, event.output);
  if (statusOf(event) === 0) return network.fail(kind); // no answer at all: the network fails
  return network.answer(kind, statusOf(event), { error: 'refused' });
}

describeModel(verifyModel, {
  start: (input) => {
    const { hash, state } = input as VerifyInput;
    const network = heldVerification();
    return { ...renderApp({ pathname: PAGE, hash, state }, { fakeTimers: true }), network, input: input as VerifyInput, presses: { count: 0 } };
  },
  actions: {
    'xstate.done.actor.lookUp': async ({ network }, _before, event) => answer(network, 'lookUp', event),
    'xstate.error.actor.lookUp': async ({ network }, _before, event) => answer(network, 'lookUp', event),
    'xstate.after.callTimeout.verify.lookingUp': () => elapse(VERIFICATION_TIMEOUT_MS),
    'verify.retry': ({ user }) => user.click(screen.getByRole('button', { name: copy.retry })),
    'verify.confirm': ({ user }) => user.click(screen.getByRole('button', { name: copy.confirm })),
    'xstate.done.actor.confirm': async ({ network }, _before, event) => answer(network, 'confirm', event),
    'xstate.error.actor.confirm': async ({ network }, _before, event) => answer(network, 'confirm', event),
    'xstate.after.callTimeout.verify.confirming': () => elapse(VERIFICATION_TIMEOUT_MS),
  },
  expectView: (state, { location, network, input, presses }, event) => {
    if (event?.type === 'verify.confirm' || event?.type === 'verify.retry') presses.count += 1;
    const pressedBefore = (step?: AnyEventObject) => presses.count > 0 && step?.type !== 'verify.confirm' && step?.type !== 'verify.retry';
    // what the page is doing, for a screen reader
    const status = within(screen.getByRole('main')).getByRole('status');
    if (state.matches('lookingUp')) expect(status).toHaveTextContent(copy.checking);
    else if (state.matches('confirming')) expect(status).toHaveTextContent(copy.confirming);
    else if (state.matches('ready')) expect(status).toHaveTextContent(copy.found);
    else expect(status).toBeEmptyDOMElement();
    const heading = screen.getByRole('heading', { level: 1, name: copy.title });
    expect(heading).toBeInTheDocument();
    // The token never stays in the address bar; it is sent in a body, and only to the verification calls.
    expect(location()).toBe(PAGE);
    const sent = [...network.sent('lookUp'), ...network.sent('confirm')];
    for (const call of sent) expect(call.body).toEqual({ token: SAMPLE_TOKEN });
    // a link without a well-formed token asks the server nothing
    if (input.hash !== `#token=${SAMPLE_TOKEN}` && input.state === null) expect(sent).toHaveLength(0);

    const confirmButton = screen.queryByRole('button', { name: new RegExp(`${copy.confirm}|${copy.confirming}`) });
    const error = state.context.error;
    if (error) expect(screen.getByRole('alert')).toHaveTextContent(error);
    else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // in the visitor's words, never a developer's
    if (error) expect([VERIFY_FALLBACK_ERROR, VERIFY_TIMEOUT_ERROR].includes(error) || /^Our server could not check your link just now \(error 503\)/.test(error)).toBe(true);
    if (error) expect(error).not.toMatch(/HTTP/);

    if (state.matches('lookingUp')) {
      expect(screen.getByText(copy.checking, { selector: 'p[aria-hidden="true"]' })).toBeVisible(); // shown; the status line says it
      expect(confirmButton).not.toBeInTheDocument();
      expect(network.sent('confirm')).toHaveLength(0);
    } else if (state.matches('lookupFailed')) {
      expect(screen.getByRole('button', { name: copy.retry })).toBeEnabled();
      if (pressedBefore(event)) expect(screen.getByRole('button', { name: copy.retry })).toHaveFocus();
      expect(confirmButton).not.toBeInTheDocument();
    } else if (state.matches('ready') || state.matches('confirming')) {
      // only the types and the date received
      const summary = screen.getByLabelText(copy.requestLabel);
      expect(summary).toHaveTextContent('Received onNovember 20, 2026');
      expect(summary).toHaveTextContent('Request typesAccess/Know, Delete');
      if (state.matches('ready')) {
        expect(confirmButton).toHaveTextContent(copy.confirm);
        expect(confirmButton).toBeEnabled();
        expect(confirmButton).toHaveAttribute('aria-disabled', 'false');
        // after a press (a failed confirmation, or a look-up tried again) the button has the focus
        if (pressedBefore(event)) expect(confirmButton).toHaveFocus();
      } else {
        expect(confirmButton).toHaveTextContent(copy.confirming);
        // it keeps the focus it had, and cannot be pressed again
        expect(confirmButton).toHaveAttribute('aria-disabled', 'true');
        expect(confirmButton).toHaveFocus();
        expect(network.sent('confirm').length).toBeGreaterThan(0);
      }
    } else {
      const title = state.matches('confirmed') ? copy.confirmedTitle : state.matches('alreadyConfirmed') ? copy.alreadyTitle : copy.invalidTitle;
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
      if (pressedBefore(event)) expect(screen.getByRole('heading', { level: 2, name: title })).toHaveFocus();
      expect(confirmButton).not.toBeInTheDocument();
      if (state.matches('invalid')) expect(screen.getByRole('link', { name: copy.newRequest })).toHaveAttribute('href', '/privacy-request');
    }
  },
});
