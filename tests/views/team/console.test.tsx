import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enrollCopy, frameCopy, notFoundCopy, signInCopy } from '@/content/team';
import {
  PASSKEYS_UNSUPPORTED,
  SESSION_ENDED,
  SIGN_IN_CANCELLED,
  SIGN_IN_RATE_LIMITED,
  SIGN_IN_REFUSED,
  SIGN_OUT_FAILED,
  TEAM_OFFLINE,
} from '#machines/teamSessionMachine';
import { ENROLL_CANCELLED } from '#machines/teamEnrollMachine';
import { TEAM_API_PATH } from '#shared/team';
import { server } from '../../../mocks/node';
import { renderTeam } from '../../renderTeam';
import { axeViolations } from '../../support/axe';
import { network } from '../../support/network';
import { CREDENTIAL_ID, ENROLL_TOKEN, fakeAuthenticator, heldTeamApi, SIGN_IN_OPTIONS, TEAM_MEMBER } from '../../support/teamNetwork';

let authenticator: ReturnType<typeof fakeAuthenticator>;
beforeEach(() => {
  authenticator = fakeAuthenticator();
});
afterEach(() => authenticator.restore());

/** Every team call, with its method and path, in the order sent. */
const teamCalls = () => network.all().filter((r) => new URL(r.url).pathname.startsWith(TEAM_API_PATH)).map((r) => `${r.method} ${new URL(r.url).pathname}`);

/** Opens the console signed out, and presses "Sign in with a passkey". */
async function signIn() {
  const view = renderTeam('/team');
  const button = await screen.findByRole('button', { name: signInCopy.button });
  await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'false'));
  await view.user.click(button);
  return view;
}

describe('the sign-in screen', () => {
  it('signs in with one passkey ceremony, user verification required, and opens the queue with the member in the header', async () => {
    heldTeamApi([]);
    await signIn();
    expect(await screen.findByRole('heading', { level: 1, name: 'Queue' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent(`${frameCopy.signedInAs} ${TEAM_MEMBER.name}`);
    // the pressed button is gone: the focus is on the page, not lost to the top of the document
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus()); // moved in an effect, after the commit
    expect(teamCalls()).toEqual(expect.arrayContaining([`POST ${TEAM_API_PATH}/signin/options`, `POST ${TEAM_API_PATH}/signin/verify`]));
    const verify = network.all().find((r) => r.url.endsWith('/signin/verify'))!;
    expect(verify.body).toMatchObject({ challengeId: SIGN_IN_OPTIONS.challengeId, response: { id: CREDENTIAL_ID } });
    expect(authenticator.credentials.get).toHaveBeenCalledTimes(1);
    expect(authenticator.credentials.get.mock.calls[0]).toMatchObject([{ publicKey: { userVerification: 'required' } }]);
  });

  const failures: Array<[string, () => void, string]> = [
    ['the member closes the passkey dialog', () => authenticator.cancelNext(), SIGN_IN_CANCELLED],
    ['the passkey is refused (401)', () => server.use(http.post(`${TEAM_API_PATH}/signin/verify`, () => HttpResponse.json({ error: 'no' }, { status: 401 }))), SIGN_IN_REFUSED],
    ['too many attempts (429)', () => server.use(http.post(`${TEAM_API_PATH}/signin/options`, () => HttpResponse.json({ error: 'later' }, { status: 429 }))), SIGN_IN_RATE_LIMITED],
    ['the server cannot be reached', () => server.use(http.post(`${TEAM_API_PATH}/signin/options`, () => HttpResponse.error())), TEAM_OFFLINE],
    ['the browser has no passkeys', () => authenticator.restore(), PASSKEYS_UNSUPPORTED],
  ];
  for (const [when, arrange, said] of failures) {
    it(`says why, and offers the button again, when ${when}`, async () => {
      heldTeamApi([]);
      arrange();
      await signIn();
      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(said));
      expect(screen.getByRole('button', { name: signInCopy.button })).toHaveAttribute('aria-disabled', 'false');
      expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    });
  }

  it('says how to get access, and has no violation axe can find', async () => {
    heldTeamApi([]);
    renderTeam('/team');
    await waitFor(() => expect(screen.getByRole('button', { name: signInCopy.button })).toHaveAttribute('aria-disabled', 'false'));
    expect(document.body).toHaveFocus(); // the page opened: the focus stays where the browser put it
    expect(screen.getByRole('main')).toHaveTextContent('npm run requests -- team add <email>');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('link', { name: frameCopy.skipLink })).toHaveAttribute('href', '#main');
    expect(await axeViolations()).toEqual([]);
  });
});

describe('the console, signed in', () => {
  beforeEach(() => {
    server.use(http.get(`${TEAM_API_PATH}/session`, () => HttpResponse.json(TEAM_MEMBER)));
  });

  it('moves between the queue and the cohorts with the header links (aria-current), and has no violation axe can find', async () => {
    const { user, location } = renderTeam('/team');
    const nav = await screen.findByRole('navigation', { name: frameCopy.nav });
    expect(within(nav).getByRole('link', { name: frameCopy.queue })).toHaveAttribute('aria-current', 'page');
    await user.click(within(nav).getByRole('link', { name: frameCopy.cohorts }));
    expect(location()).toBe('/team/cohorts');
    expect(screen.getByRole('heading', { level: 1, name: 'Cohorts' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: frameCopy.cohorts })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: frameCopy.queue })).not.toHaveAttribute('aria-current');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows the console not-found page for a path that is none of its pages, inside the frame', async () => {
    renderTeam('/team/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: notFoundCopy.title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: notFoundCopy.back })).toHaveAttribute('href', '/team');
    expect(screen.getByRole('navigation', { name: frameCopy.nav })).toBeInTheDocument();
  });

  it('signs out: the server ends the session, and the sign-in screen comes back', async () => {
    server.use(http.post(`${TEAM_API_PATH}/signout`, () => new HttpResponse(null, { status: 204 })));
    const { user } = renderTeam('/team');
    await user.click(await screen.findByRole('button', { name: frameCopy.signOut }));
    expect(await screen.findByRole('heading', { level: 1, name: signInCopy.title })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus()); // moved in an effect, after the commit
    expect(teamCalls()).toContain(`POST ${TEAM_API_PATH}/signout`);
    expect(screen.queryByText(TEAM_MEMBER.name!)).not.toBeInTheDocument();
  });

  it('keeps the member signed in, and says so, when signing out gets no answer', async () => {
    server.use(http.post(`${TEAM_API_PATH}/signout`, () => HttpResponse.error()));
    const { user } = renderTeam('/team');
    await user.click(await screen.findByRole('button', { name: frameCopy.signOut }));
    await waitFor(() => expect(screen.getByRole('banner')).toHaveTextContent(SIGN_OUT_FAILED));
    expect(screen.getByRole('button', { name: frameCopy.signOut })).toHaveAttribute('aria-disabled', 'false');
  });

  it('returns to the sign-in screen with "Your session ended" when a page reports a 401', async () => {
    const { sendToSession } = renderTeam('/team/cohorts');
    await screen.findByRole('heading', { level: 1, name: 'Cohorts' });
    sendToSession({ type: 'session.ended' });
    expect(await screen.findByRole('heading', { level: 1, name: signInCopy.title })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(SESSION_ENDED);
  });
});

describe('the enrollment page', () => {
  it('registers this device\'s passkey with the link\'s token, keeps the token out of the address, and opens the console signed in', async () => {
    heldTeamApi([]);
    const { user, location } = renderTeam(`/team/enroll#token=${ENROLL_TOKEN}`);
    const button = await screen.findByRole('button', { name: enrollCopy.button });
    expect(location()).toBe('/team/enroll');
    expect(await axeViolations()).toEqual([]);
    await user.click(button);
    expect(await screen.findByRole('heading', { level: 1, name: 'Queue' })).toBeInTheDocument();
    expect(location()).toBe('/team');
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus()); // moved in an effect, after the commit
    const options = network.all().find((r) => r.url.endsWith('/enroll/options'))!;
    expect(options.body).toEqual({ token: ENROLL_TOKEN });
    expect(authenticator.credentials.create).toHaveBeenCalledTimes(1);
  });

  it('says the dialog was closed, and offers the button again', async () => {
    heldTeamApi([]);
    authenticator.cancelNext();
    const { user } = renderTeam(`/team/enroll#token=${ENROLL_TOKEN}`);
    await user.click(await screen.findByRole('button', { name: enrollCopy.button }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(ENROLL_CANCELLED));
    expect(screen.getByRole('button', { name: enrollCopy.button })).toHaveAttribute('aria-disabled', 'false');
  });

  it('says a used, expired or revoked link is gone (410), and how to get a new one', async () => {
    heldTeamApi([]);
    server.use(http.post(`${TEAM_API_PATH}/enroll/options`, () => HttpResponse.json({ error: 'gone' }, { status: 410 })));
    const { user } = renderTeam(`/team/enroll#token=${ENROLL_TOKEN}`);
    await user.click(await screen.findByRole('button', { name: enrollCopy.button }));
    expect(await screen.findByRole('heading', { level: 2, name: enrollCopy.goneTitle })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('npm run requests -- team link <email>');
    expect(screen.queryByRole('button', { name: enrollCopy.button })).not.toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });

  it('without a token, asks for a new link and calls nothing', async () => {
    heldTeamApi([]);
    renderTeam('/team/enroll');
    expect(await screen.findByRole('heading', { level: 2, name: enrollCopy.noTokenTitle })).toBeInTheDocument();
    expect(teamCalls().filter((call) => call.includes('/enroll/'))).toEqual([]);
  });
});
