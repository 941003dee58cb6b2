import { screen, within } from '@testing-library/dom';
import { afterEach, expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { frameCopy, signInCopy } from '@/content/team';
import { SESSION_ENDED, SIGN_OUT_FAILED } from '#machines/teamSessionMachine';
import { TeamApiError } from '@/services/teamApi';
import { renderTeam } from '../renderTeam';
import { CHALLENGE, CREDENTIAL_ID, fakeAuthenticator, heldTeamApi, SIGN_IN_OPTIONS, TEAM_MEMBER } from '../support/teamNetwork';
import { teamSessionModel } from './models';
import { describeModel } from './runner';
import { settle } from './steps';

type Session = ReturnType<typeof renderTeam> & { network: ReturnType<typeof heldTeamApi>; authenticator: ReturnType<typeof fakeAuthenticator> };

let authenticator: ReturnType<typeof fakeAuthenticator> | undefined;
afterEach(() => authenticator?.restore());

/** Answers a held call as the event says: 200 with its output, the error's status, or no answer. */
function answerAs(network: Session['network'], call: Parameters<Session['network']['answer']>[0], event: AnyEventObject, body?: unknown) {
  if (event.type.startsWith('xstate.done.')) return network.answer(call, call === 'signOut' || event.output === null ? 204 : 200, body ?? event.output);
  const status = (event as { error?: TeamApiError }).error?.status ?? null;
  if (status === null) return network.fail(call);
  return network.answer(call, status, { error: 'refused' });
}

describeModel(teamSessionModel, {
  start: () => {
    authenticator = fakeAuthenticator();
    const network = heldTeamApi();
    return { ...renderTeam('/team', { fakeTimers: true }), network, authenticator } satisfies Session;
  },
  actions: {
    'xstate.done.actor.checkSession': async ({ network }, _before, event) => answerAs(network, 'session', event),
    'xstate.error.actor.checkSession': async ({ network }, _before, event) => answerAs(network, 'session', event),
    'session.signIn': ({ user }) => user.click(screen.getByRole('button', { name: signInCopy.button })),
    // the ceremony: the server's options, the browser's dialog, the server's check
    'xstate.done.actor.signInWithPasskey': async ({ network }, _before, event) => {
      network.answer('signInOptions', 200, SIGN_IN_OPTIONS);
      await settle();
      answerAs(network, 'signInVerify', event);
    },
    'xstate.error.actor.signInWithPasskey': async ({ network, authenticator }, _before, event) => {
      const error = (event as { error?: unknown }).error;
      if (error instanceof TeamApiError && error.status === 429) return network.answer('signInOptions', 429, { error: 'Too many attempts' });
      if (!(error instanceof TeamApiError)) authenticator.cancelNext();
      network.answer('signInOptions', 200, SIGN_IN_OPTIONS);
      await settle();
      authenticator.acceptNext();
      if (error instanceof TeamApiError) answerAs(network, 'signInVerify', event);
    },
    'session.signOut': ({ user }) => user.click(screen.getByRole('button', { name: frameCopy.signOut })),
    'xstate.done.actor.endSession': async ({ network }, _before, event) => answerAs(network, 'signOut', event),
    'xstate.error.actor.endSession': async ({ network }, _before, event) => answerAs(network, 'signOut', event),
    // as a console page does when its call answers 401, and the enrollment page once its passkey is registered
    'session.ended': async ({ sendToSession }) => sendToSession({ type: 'session.ended' }),
    'session.enrolled': async ({ sendToSession }) => sendToSession({ type: 'session.enrolled', member: TEAM_MEMBER }),
  },
  expectView: (state, { network, authenticator, location }) => {
    expect(location()).toBe('/team');
    const main = screen.getByRole('main');
    const signInButton = within(main).queryByRole('button', { name: signInCopy.button });
    const nav = screen.queryByRole('navigation', { name: frameCopy.nav });
    if (state.matches('checking') || state.matches('signedOut')) {
      expect(within(main).getByRole('heading', { level: 1, name: signInCopy.title })).toBeInTheDocument();
      expect(nav).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: frameCopy.signOut })).not.toBeInTheDocument();
      const status = within(main).getByRole('status');
      if (state.matches('checking')) expect(status).toHaveTextContent(signInCopy.checking);
      else if (state.matches({ signedOut: 'signingIn' })) expect(status).toHaveTextContent(signInCopy.waiting);
      else if (state.context.message) expect(status).toHaveTextContent(state.context.message);
      else expect(status).toBeEmptyDOMElement();
      // the button keeps its place and focus, and can be pressed only when idle
      expect(signInButton).toHaveAttribute('aria-disabled', String(!state.matches({ signedOut: 'idle' })));
      // said in the member's words
      if (state.context.message) expect(state.context.message).not.toMatch(/TeamApiError|DOMException|HTTP/);
      if (state.context.message === SESSION_ENDED) expect(status).toHaveTextContent('Your session ended. Sign in again.');
    } else {
      expect(signInButton).not.toBeInTheDocument();
      expect(within(main).getByRole('heading', { level: 1, name: 'Queue' })).toBeInTheDocument();
      expect(within(nav!).getByRole('link', { name: frameCopy.queue })).toHaveAttribute('aria-current', 'page');
      expect(within(nav!).getByRole('link', { name: frameCopy.cohorts })).not.toHaveAttribute('aria-current');
      expect(screen.getByRole('banner')).toHaveTextContent(`${frameCopy.signedInAs} ${TEAM_MEMBER.name}`);
      const signOut = screen.getByRole('button', { name: state.matches({ signedIn: 'signingOut' }) ? frameCopy.signingOut : frameCopy.signOut });
      expect(signOut).toHaveAttribute('aria-disabled', String(state.matches({ signedIn: 'signingOut' })));
      if (state.context.message) expect(screen.getByRole('banner')).toHaveTextContent(SIGN_OUT_FAILED);
    }
    // what crossed the network: the session asked as the console opened (StrictMode's first, aborted, call
    // aside); each sign-in's assertion sent with its challenge
    expect(network.sent('session').length).toBeGreaterThan(0);
    for (const call of network.sent('signInVerify')) {
      expect(call.body).toMatchObject({ challengeId: SIGN_IN_OPTIONS.challengeId, response: { id: CREDENTIAL_ID, type: 'public-key' } });
    }
    for (const call of authenticator.credentials.get.mock.calls as unknown as Array<[{ publicKey: { userVerification: string; challenge: ArrayBuffer } }]>) {
      expect(call[0].publicKey.userVerification).toBe('required');
      expect(new TextDecoder().decode(call[0].publicKey.challenge)).toBe(atob(CHALLENGE));
    }
    expect(network.sent('signInOptions').length).toBeGreaterThanOrEqual(network.sent('signInVerify').length);
  },
});
