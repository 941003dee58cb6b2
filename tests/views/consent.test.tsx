import { act } from '@testing-library/react';
import { screen, waitFor, within } from '@testing-library/dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePosthog as posthog } from '../support/fakePosthog';
import { network } from '../support/network';
import type * as SiteConfig from '@/config/site';
import { STORAGE_KEYS } from '@/config/site';
import { fillRequiredInviteFields, inviteSubmitButton } from '../inviteFixtures';
import { renderApp } from '../renderApp';

/** The opt-out toast's live region: the page's one status outside `<main>` (the cost estimator's `<output>` is one too). */
const toastStatus = () => screen.getAllByRole('status').find((status) => !status.closest('main'))!;

// A key, so that analytics is on as in a deployment; the SDK is the fake of tests/support (tests/setup.ts).
vi.mock('@/config/site', async (importOriginal) => ({
  ...(await importOriginal<typeof SiteConfig>()),
  POSTHOG_KEY: 'phc_test',
}));

const OPT_OUT = 'Do Not Sell or Share My Personal Information';
const CONFIRMATION = 'You have opted out of tracking. Your preference has been saved.';

function setGpc(on: boolean) {
  Object.defineProperty(navigator, 'globalPrivacyControl', { value: on, configurable: true });
}

beforeEach(() => setGpc(false));
afterEach(() => setGpc(false));

/**
 * Gives the SDK every chance to load: its chunk and the recorder's each wait for an idle period after the
 * load event (src/services/analytics.ts; jsdom has no requestIdleCallback, so a task each), then a dynamic
 * import. Twenty tasks are more than that chain needs; a test of "never loaded" waits this long.
 */
async function sdkSettled() {
  for (let task = 0; task < 20; task += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

describe('tracking consent in the views (spec §4, §7.3)', () => {
  it('loads PostHog for a default visitor with the settings of §7.3', async () => {
    renderApp('/');
    await waitFor(() => expect(posthog.recording).toBe(true));
    expect(posthog.initCalls).toBe(1);
    expect(posthog.config).toMatchObject({
      persistence: 'memory',
      person_profiles: 'identified_only',
      capture_pageview: false, // page views are the site's: the first once the SDK is in, then one per route change
      capture_pageleave: true,
      session_recording: { recordCrossOriginIframes: false },
      disable_external_dependency_loading: true,
    });
    // the first page view went through the session's before_send gate
    expect(posthog.sentEvents('$pageview')).toHaveLength(1);
    expect(posthog.isCapturing()).toBe(true);
  });

  it('a client-side route change is a page view; a section of the same page (#hash) is not', async () => {
    const { user } = renderApp('/');
    await waitFor(() => expect(posthog.recording).toBe(true));
    expect(posthog.sentEvents('$pageview')).toHaveLength(1); // the page loaded
    await user.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Pricing' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posthog.sentEvents('$pageview')).toHaveLength(1); // #pricing: the same page
    await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Privacy Policy' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: /privacy policy/i })).toBeInTheDocument());
    await waitFor(() => expect(posthog.sentEvents('$pageview')).toHaveLength(2));
    await user.click(within(screen.getByRole('banner')).getByRole('link', { name: 'FAQ' }));
    await waitFor(() => expect(posthog.sentEvents('$pageview')).toHaveLength(3)); // back on /
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posthog.sentEvents('$pageview')).toHaveLength(3);
  });

  it("the footer button stores 'rejected', stops capture and recording, and shows the confirmation for 3000 ms", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user } = renderApp('/', { fakeTimers: true });
    // vi.waitFor: the SDK's import takes real time, while the fake clock is advanced
    await vi.waitFor(() => expect(posthog.recording).toBe(true));
    await user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: OPT_OUT }));

    expect(toastStatus()).toHaveTextContent(CONFIRMATION);
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe('rejected');
    await vi.waitFor(() => expect(posthog.recording).toBe(false));
    expect(posthog.isCapturing()).toBe(false);
    // opt_out_capturing() would write PostHog's own flag to localStorage (DESIGN.md §3)
    expect(posthog.optOutCalls).toBe(0);
    expect(Object.keys(localStorage)).toEqual([STORAGE_KEYS.consent]);
    // the toast does not steal focus: it stays on the button the visitor pressed
    expect(screen.getByRole('button', { name: OPT_OUT })).toHaveFocus();

    act(() => {
      vi.advanceTimersByTime(2900);
    });
    expect(toastStatus()).toHaveTextContent(CONFIRMATION);
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(toastStatus()).toBeEmptyDOMElement();
  });

  it('turns nothing on for a visitor who opted out before', async () => {
    localStorage.setItem(STORAGE_KEYS.consent, 'rejected');
    const { user } = renderApp('/');
    await sdkSettled();
    // never loaded, so nothing sent or recorded (tests/e2e/consent.spec.ts checks in Chromium that it is not even fetched)
    expect(posthog.initCalls).toBe(0);
    expect(posthog.sent).toEqual([]);
    // and a later page of the visit does not load it either
    await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Privacy Policy' }));
    await sdkSettled();
    expect(posthog.initCalls).toBe(0);
  });

  it("an invite submission stores 'accepted', turns analytics back on and sends invite_request_submitted with the body's data", async () => {
    localStorage.setItem(STORAGE_KEYS.consent, 'rejected');
    const { user, location } = renderApp('/');
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe('accepted');
    await waitFor(() => expect(posthog.sentEvents('invite_request_submitted')).toHaveLength(1));
    expect(posthog.sentEvents('invite_request_submitted')[0]!.properties).toEqual(network.delivered()[0]!.data);
    await waitFor(() => expect(posthog.recording).toBe(true));
  });

  it('with GPC on: the honoured-signal notice shows, and a submission sends no analytics event and stores nothing', async () => {
    setGpc(true);
    const { user, location } = renderApp('/');
    expect(within(screen.getByRole('contentinfo')).getByText(/Opt-out preference signal honored/)).toBeInTheDocument();
    await fillRequiredInviteFields(user);
    await user.click(inviteSubmitButton());
    await waitFor(() => expect(location()).toBe('/thank-you'));
    await sdkSettled();
    expect(posthog.initCalls).toBe(0);
    expect(posthog.sent).toEqual([]);
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBeNull();
  });

  it('shows no GPC notice when the browser does not send the signal', () => {
    renderApp('/');
    expect(screen.queryByText(/Opt-out preference signal honored/)).not.toBeInTheDocument();
  });
});
