import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type * as SiteConfig from '@/config/site';
import { STORAGE_KEYS } from '@/config/site';
import type { ConsentInput } from '#machines/consentMachine';
import { receivedSubmissions } from '../../mocks/handlers';
import { fillRequiredInviteFields, inviteSubmitButton } from '../inviteFixtures';
import { renderApp } from '../renderApp';
import { consentModel } from './models';
import { describeModel } from './runner';

// A fake PostHog SDK in place of the dynamically imported module, and a key so that analytics runs.
type FakeConfig = { before_send: (event: { event: string }) => unknown };
const posthog = vi.hoisted(() => ({
  config: undefined as FakeConfig | undefined,
  captured: [] as Array<[string, unknown]>,
  init(_key: string, config: FakeConfig) {
    this.config = config;
  },
  capture(event: string, properties: unknown) {
    this.captured.push([event, properties]);
  },
  startSessionRecording() {},
  stopSessionRecording() {},
  sessionRecordingStarted: () => false,
}));
vi.mock('posthog-js/dist/module.full.no-external', () => ({ default: posthog }));
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
    posthog.captured.length = 0;
    return renderApp('/', { fakeTimers: true });
  },
  actions: {
    'consent.optOut': ({ user }) => user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: OPT_OUT })),
    // an invite submission sends consent.accept with its analytics event
    'consent.accept': (session) => submitInvite(session),
  },
  expectView: (state, _session, event) => {
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe(state.context.stored);
    const notice = within(screen.getByRole('contentinfo')).queryByText(/Opt-out preference signal honored/);
    if (state.context.gpc) expect(notice).toBeInTheDocument();
    else expect(notice).not.toBeInTheDocument();

    if (state.matches('accepted')) {
      expect(posthog.config?.before_send({ event: '$pageview' })).toEqual({ event: '$pageview' });
    } else if (posthog.config) {
      expect(posthog.config.before_send({ event: '$pageview' })).toBeNull();
    }

    if (event?.type === 'consent.accept') {
      if (state.matches('accepted')) {
        const data = (receivedSubmissions.at(-1) as { data: unknown }).data;
        expect(posthog.captured.at(-1)).toEqual(['invite_request_submitted', data]);
      } else {
        expect(posthog.captured).toEqual([]);
      }
    }
    if (event?.type === 'consent.optOut') {
      expect(screen.getByRole('status')).toHaveTextContent('You have opted out of tracking.');
    }
  },
});
