import { screen, within } from '@testing-library/dom';
import { afterEach, expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { enrollCopy, frameCopy, NEW_LINK_COMMAND } from '@/content/team';
import type { TeamEnrollInput } from '#machines/teamEnrollMachine';
import { TeamApiError } from '@/services/teamApi';
import { renderTeam } from '../renderTeam';
import { CREDENTIAL_ID, ENROLL_OPTIONS, ENROLL_TOKEN, fakeAuthenticator, heldTeamApi, TEAM_MEMBER } from '../support/teamNetwork';
import { teamEnrollModel } from './models';
import { describeModel } from './runner';
import { settle } from './steps';

const PAGE = '/team/enroll';

let authenticator: ReturnType<typeof fakeAuthenticator> | undefined;
afterEach(() => authenticator?.restore());

describeModel(teamEnrollModel, {
  start: (input) => {
    const { token } = input as TeamEnrollInput;
    authenticator = fakeAuthenticator();
    // the session: none yet (401 at once); the enrollment's calls held until the path answers them
    const network = heldTeamApi(['enrollOptions', 'enrollVerify']);
    return { ...renderTeam(token ? `${PAGE}#token=${token}` : PAGE, { fakeTimers: true }), network, authenticator: authenticator, input: input as TeamEnrollInput };
  },
  actions: {
    'enroll.register': ({ user }) => user.click(screen.getByRole('button', { name: enrollCopy.button })),
    'xstate.done.actor.registerPasskey': async ({ network }) => {
      network.answer('enrollOptions', 200, ENROLL_OPTIONS);
      await settle();
      network.answer('enrollVerify', 200, TEAM_MEMBER);
    },
    'xstate.error.actor.registerPasskey': async ({ network, authenticator }, _before, event: AnyEventObject) => {
      const error = (event as { error?: unknown }).error;
      if (error instanceof TeamApiError) return network.answer('enrollOptions', error.status!, { error: error.message });
      authenticator.cancelNext(); // the member closes the browser's dialog
      network.answer('enrollOptions', 200, ENROLL_OPTIONS);
      await settle();
      authenticator.acceptNext();
    },
  },
  expectView: (state, { network, location, input }) => {
    // what crossed the network: the token in a body, only to the enrollment calls; nothing without one
    for (const call of network.sent('enrollOptions')) expect(call.body).toEqual({ token: ENROLL_TOKEN });
    for (const call of network.sent('enrollVerify')) expect(call.body).toMatchObject({ token: ENROLL_TOKEN, response: { id: CREDENTIAL_ID, type: 'public-key' } });
    if (input.token === null) expect([...network.sent('enrollOptions'), ...network.sent('enrollVerify')]).toHaveLength(0);

    if (state.matches('enrolled')) {
      // signed in with the new passkey: the console opens at its queue
      expect(location()).toBe('/team');
      expect(within(screen.getByRole('main')).getByRole('heading', { level: 1, name: 'Queue' })).toBeInTheDocument();
      expect(screen.getByRole('banner')).toHaveTextContent(`${frameCopy.signedInAs} ${TEAM_MEMBER.name}`);
      return;
    }
    // the token never stays in the address bar
    expect(location()).toBe(PAGE);
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1, name: enrollCopy.title })).toBeInTheDocument();
    const status = within(main).getByRole('status');
    const button = within(main).queryByRole('button', { name: enrollCopy.button });
    if (state.matches('noToken') || state.matches('gone')) {
      const title = state.matches('noToken') ? enrollCopy.noTokenTitle : enrollCopy.goneTitle;
      expect(within(main).getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
      expect(main).toHaveTextContent(NEW_LINK_COMMAND);
      expect(button).not.toBeInTheDocument();
      expect(status).toBeEmptyDOMElement();
      return;
    }
    expect(button).toHaveAttribute('aria-disabled', String(state.matches('registering')));
    if (state.matches('registering')) expect(status).toHaveTextContent(enrollCopy.registering);
    else if (state.context.error) expect(status).toHaveTextContent(state.context.error);
    else expect(status).toBeEmptyDOMElement();
    if (state.context.error) expect(state.context.error).not.toMatch(/TeamApiError|HTTP/);
  },
});
