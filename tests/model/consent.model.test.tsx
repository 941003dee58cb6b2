import { act } from '@testing-library/react';
import { screen, within } from '@testing-library/dom';
import { expect, vi } from 'vitest';
import type * as SiteConfig from '@/config/site';
import { STORAGE_KEYS } from '@/config/site';
import type { ConsentInput } from '#machines/consentMachine';
import { fillRequiredInviteFields, inviteSubmitButton } from '../inviteFixtures';
import { renderApp } from '../renderApp';
import { fakePosthog as posthog } from '../support/fakePosthog';
import { network } from '../support/network';
import { consentModel } from './models';
import { describeModel } from './runner';

/** The opt-out toast's live region: the page's one status outside `<main>` (the cost estimator's `<output>` is one too). */
const toastStatus = () => screen.getAllByRole('status').find((status) => !status.closest('main'))!;

// A key, so that analytics runs as in a deployment; the SDK is the fake of tests/support (tests/setup.ts).
vi.mock('@/config/site', async (importOriginal) => ({ ...(await importOriginal<typeof SiteConfig>()), POSTHOG_KEY: 'phc_test' }));

const OPT_OUT = 'Do Not Sell or Share My Personal Information';

/** A visitor submits the invite form (spec §4: stores 'accepted'; §7.3: sends invite_request_submitted), then goes back home. */
async function submitInvite(session: ReturnType<typeof renderApp>) {
  const { user, location } = session;
  if (location() !== '/') await user.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Request invite' }));
  await fillRequiredInviteFields(user);
  await user.click(inviteSubmitButton());
}

describeModel(consentModel, {
  start: (input) => {
    const { stored, gpc } = input as ConsentInput;
    if (stored) localStorage.setItem(STORAGE_KEYS.consent, stored);
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: gpc, configurable: true });
    return renderApp('/', { fakeTimers: true });
  },
  actions: {
    'consent.optOut': ({ user }) => user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: OPT_OUT })),
    // an invite submission sends consent.accept with its analytics event
    'consent.accept': (session) => submitInvite(session),
  },
  expectView: async (state, _session, event) => {
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe(state.context.stored);
    const notice = within(screen.getByRole('contentinfo')).queryByText(/Opt-out preference signal honored/);
    if (state.context.gpc) expect(notice).toBeInTheDocument();
    else expect(notice).not.toBeInTheDocument();

    // PostHog captures and records exactly while the machine is in `accepted` (the SDK loads asynchronously:
    // vi.waitFor gives that import real time while it advances the fake clock)
    const tracking = state.matches('accepted');
    await vi.waitFor(() => expect({ capturing: posthog.isCapturing(), recording: posthog.recording }).toEqual({ capturing: tracking, recording: tracking }));

    if (event?.type === 'consent.accept') {
      const submitted = posthog.sentEvents('invite_request_submitted');
      if (tracking) {
        const data = network.delivered().at(-1)?.data;
        await vi.waitFor(() => expect(posthog.sentEvents('invite_request_submitted').at(-1)?.properties).toEqual(data));
      } else {
        await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
        expect(submitted).toEqual([]);
      }
    }
    if (event?.type === 'consent.optOut') {
      expect(toastStatus()).toHaveTextContent('You have opted out of tracking.');
    }
  },
});
