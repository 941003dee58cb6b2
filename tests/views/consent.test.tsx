import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as SiteConfig from '@/config/site';
import { STORAGE_KEYS } from '@/config/site';
import { receivedSubmissions } from '../../mocks/handlers';
import { fillRequiredInviteFields, inviteSubmitButton } from '../inviteFixtures';
import { renderApp } from '../renderApp';

// A fake PostHog SDK in place of the dynamically imported module, and a key so that analytics is on.
type FakeConfig = { before_send: (event: { event: string }) => unknown; [key: string]: unknown };
const posthog = vi.hoisted(() => {
  const fake = {
    config: undefined as undefined | FakeConfig,
    init: (_key: string, config: FakeConfig) => {
      fake.config = config;
    },
    capture: (() => {}) as (event: string, properties?: object) => void,
    startSessionRecording: () => {},
    stopSessionRecording: () => {},
    sessionRecordingStarted: () => false,
    opt_out_capturing: () => {},
  };
  return fake;
});
vi.mock('posthog-js/dist/module.full.no-external', () => ({ default: posthog }));
vi.mock('@/config/site', async (importOriginal) => ({
  ...(await importOriginal<typeof SiteConfig>()),
  POSTHOG_KEY: 'phc_test',
}));

const OPT_OUT = 'Do Not Sell or Share My Personal Information';
const CONFIRMATION = 'You have opted out of tracking. Your preference has been saved.';

function setGpc(on: boolean) {
  Object.defineProperty(navigator, 'globalPrivacyControl', { value: on, configurable: true });
}

beforeEach(() => {
  setGpc(false);
  vi.spyOn(posthog, 'init');
  vi.spyOn(posthog, 'capture');
  vi.spyOn(posthog, 'stopSessionRecording');
  vi.spyOn(posthog, 'startSessionRecording');
  vi.spyOn(posthog, 'opt_out_capturing');
});
afterEach(() => setGpc(false));

/** Lets the dynamic import of the SDK settle. */
async function sdkSettled() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('tracking consent in the views (spec §4, §7.3)', () => {
  it('loads PostHog for a default visitor with the settings of §7.3', async () => {
    renderApp('/');
    await waitFor(() => expect(posthog.config).toBeDefined());
    expect(posthog.config).toMatchObject({
      persistence: 'memory',
      person_profiles: 'identified_only',
      capture_pageview: 'history_change',
      capture_pageleave: true,
      session_recording: { recordCrossOriginIframes: false },
      disable_external_dependency_loading: true,
    });
    expect(posthog.config!.before_send({ event: '$pageview' })).toEqual({ event: '$pageview' });
  });

  it("the footer button stores 'rejected', stops capture and recording, and shows the confirmation for 3000 ms", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user } = renderApp('/', { fakeTimers: true });
    await sdkSettled();
    await user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: OPT_OUT }));

    expect(screen.getByRole('status')).toHaveTextContent(CONFIRMATION);
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe('rejected');
    await sdkSettled();
    expect(posthog.stopSessionRecording).toHaveBeenCalled();
    expect(posthog.config!.before_send({ event: '$pageview' })).toBeNull();
    // opt_out_capturing() would write PostHog's own flag to localStorage (DESIGN.md §3)
    expect(posthog.opt_out_capturing).not.toHaveBeenCalled();
    expect(Object.keys(localStorage)).toEqual([STORAGE_KEYS.consent]);
    // the toast does not steal focus: it stays on the button the visitor pressed
    expect(screen.getByRole('button', { name: OPT_OUT })).toHaveFocus();

    act(() => vi.advanceTimersByTime(2900));
    expect(screen.getByRole('status')).toHaveTextContent(CONFIRMATION);
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('turns nothing on for a visitor who opted out before', async () => {
    localStorage.setItem(STORAGE_KEYS.consent, 'rejected');
    renderApp('/');
    await sdkSettled();
    // The SDK may already be loaded by an earlier test in this file (as after an earlier page in a
    // visit); what matters is that it sends and records nothing. tests/e2e/consent.spec.ts checks in
    // Chromium that it is not even fetched.
    expect(posthog.startSessionRecording).not.toHaveBeenCalled();
    expect(posthog.config?.before_send({ event: '$pageview' }) ?? null).toBeNull();
  });

  it("an invite submission stores 'accepted', turns analytics back on and sends invite_request_submitted with the body's data", async () => {
    localStorage.setItem(STORAGE_KEYS.consent, 'rejected');
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe('accepted');
    await waitFor(() => expect(posthog.capture).toHaveBeenCalledTimes(1));
    const [event, properties] = vi.mocked(posthog.capture).mock.calls[0]!;
    expect(event).toBe('invite_request_submitted');
    expect(properties).toEqual((receivedSubmissions[0] as { data: object }).data);
    expect(posthog.config!.before_send({ event: 'invite_request_submitted' })).not.toBeNull();
  });

  it('with GPC on: the honoured-signal notice shows, and a submission sends no analytics event and stores nothing', async () => {
    setGpc(true);
    const { user, location } = renderApp('/');
    expect(within(screen.getByRole('contentinfo')).getByText(/Opt-out preference signal honored/)).toBeInTheDocument();
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    await sdkSettled();
    expect(posthog.capture).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBeNull();
  });

  it('shows no GPC notice when the browser does not send the signal', () => {
    renderApp('/');
    expect(screen.queryByText(/Opt-out preference signal honored/)).not.toBeInTheDocument();
  });
});
