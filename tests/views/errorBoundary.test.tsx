import { screen, waitFor, within } from '@testing-library/dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../renderApp';

// One page that fails to render, as a bug or a missing chunk would make it.
vi.mock('@/pages/Terms', () => ({
  Terms: () => {
    throw new Error('the Terms page broke');
  },
}));

describe('nothing breaks the page', () => {
  beforeEach(() => {
    // the head of the prerendered /terms, as scripts/build.mjs writes it
    document.head.innerHTML = '<title>Terms of Service — Sonde</title><meta name="description" content="Terms">';
  });
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('a page that throws shows a friendly page inside the layout, with a way home, and logs the error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, location } = renderApp('/terms');
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith('[page] could not be shown:', expect.objectContaining({ message: 'the Terms page broke' }));

    // one title and one robots tag in the head: the error page's, in place of the page's own (as the build
    // wrote it), never a second one hoisted by React beside it
    expect(document.head.querySelectorAll('title')).toHaveLength(1);
    expect(document.title).toBe('Something went wrong — Sonde');
    expect(document.head.querySelectorAll('meta[name="robots"]')).toHaveLength(1);
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');

    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'Go to the home page' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(screen.getByRole('heading', { level: 1, name: /Web search built for agents/ })).toBeInTheDocument();
  });

  it('following a header or footer link also clears it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderApp('/terms');
    await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Privacy Policy' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
  });
});

describe('focus after navigation', () => {
  it("moves to the new page's heading after a client-side navigation, not on first load", async () => {
    // (the Terms page is mocked to throw in this file, so the journey avoids it)
    const { user } = renderApp('/privacy');
    expect(document.body).toHaveFocus();
    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'Submit a privacy request' }));
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('Privacy rights request');
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute('tabindex', '-1');
  });
});
