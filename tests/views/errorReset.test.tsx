import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../renderApp';

// The Terms page fails to render; the Privacy page suspends until the test lets it render, as a page
// whose chunk is still on its way does.
const privacyPage = vi.hoisted(() => {
  let release = () => {};
  const ready = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { ready, release };
});
vi.mock('@/pages/Terms', () => ({
  Terms: () => {
    throw new Error('the Terms page broke');
  },
}));
vi.mock('@/pages/Privacy', async () => {
  const { lazy } = await import('react');
  return { Privacy: lazy(() => privacyPage.ready.then(() => ({ default: () => <h1>Privacy Policy</h1> }))) };
});

describe('leaving the error page (spec §8)', () => {
  it('keeps the error page on screen until the next page can render, as any navigation does', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, location } = renderApp('/terms');
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1 })).toHaveTextContent('Something went wrong');

    await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Privacy Policy' }));
    // the navigation waits for the page, inside the router's transition: the error is cleared by that
    // render, so <main> goes on showing the error page, never an empty boundary
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(main).getByRole('heading', { level: 1 })).toHaveTextContent('Something went wrong');

    await act(async () => privacyPage.release());
    await waitFor(() => expect(within(main).getByRole('heading', { level: 1 })).toHaveTextContent('Privacy Policy'));
    expect(location()).toBe('/privacy');
  });
});
