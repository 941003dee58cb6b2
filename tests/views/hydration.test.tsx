import { act, screen, waitFor, within } from '@testing-library/react';
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadAllPages } from '@/app/routes';
import { headHtml } from '@/entry-server';
import { inviteFormElement, inviteSubmitButton } from '../inviteFixtures';
import { appAt } from '../renderApp';
import { SAMPLE_TOKEN } from '../support/network';

await preloadAllPages();

/** The footer's opt-out button (spec §4): disabled until the footer has hydrated. */
const optOutButton = () => within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Do Not Sell or Share My Personal Information' });

let hydrated: { root: Root; container: HTMLElement } | undefined;
afterEach(() => {
  act(() => hydrated?.root.unmount());
  hydrated?.container.remove();
  hydrated = undefined;
});

/**
 * Puts the prerendered HTML of `path` in the document, as the browser has it before any script runs, and
 * hydrates it as src/hydrate.tsx does (in a transition), until every Suspense boundary has hydrated.
 * @returns the container, its HTML before hydration, and every recoverable error React reported
 */
async function prerenderAndHydrate(path: string, hydrateAt = path) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(appAt(path));
  document.body.append(container);
  const before = container.innerHTML;
  const nodes = [...container.querySelectorAll('*')];
  const recoverable: unknown[] = [];
  await act(async () => {
    startTransition(() => {
      hydrated = { container, root: hydrateRoot(container, appAt(hydrateAt), { onRecoverableError: (error) => recoverable.push(error) }) };
    });
  });
  // the footer is in the layout's shell, its button enabled once the shell has hydrated
  await waitFor(() => expect(optOutButton()).toBeEnabled());
  return { container, before, nodes, recoverable };
}

describe('hydrating a prerendered page, in StrictMode (React 19 selective hydration)', () => {
  it.each(['/', '/privacy', '/privacy-request', '/terms', '/thank-you', '/no-such-page'])(
    '%s hydrates on the prerendered nodes, with no mismatch and no recoverable error',
    async (path) => {
      const consoleError = vi.spyOn(console, 'error');
      const { container, nodes, recoverable } = await prerenderAndHydrate(path);
      expect(recoverable).toEqual([]);
      // React reports an attribute or text mismatch with console.error in a development build
      expect(consoleError).not.toHaveBeenCalled();
      // nothing was replaced: every prerendered element is still in the document
      for (const node of nodes) expect(container.contains(node)).toBe(true);
      // the page loaded at its address: focus stays where the browser put it, and no heading became focusable
      expect(document.body).toHaveFocus();
      expect(container.querySelector('h1')).not.toHaveAttribute('tabindex');
    },
  );

  it('/privacy-request/verify, prerendered without a token, hydrates at its link without a mismatch, then looks the request up (11 CCR §7060)', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const { container, before, recoverable } = await prerenderAndHydrate('/privacy-request/verify', `/privacy-request/verify#token=${SAMPLE_TOKEN}`);
    // the prerendered page says it is checking, whatever link opens it
    expect(before).toContain('Checking your link…');
    expect(recoverable).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    // the mocked look-up (mocks/handlers.ts) answers, and the request is shown with its button
    await waitFor(() => expect(within(container).getByRole('button', { name: "Confirm it's me" })).toBeEnabled());
    expect(within(container).getByLabelText('The request this link confirms')).toHaveTextContent('Access/Know, Delete');
  });

  it('on /, every section hydrates, the invite form on the nodes that were prerendered', async () => {
    const { container } = await prerenderAndHydrate('/');
    const form = inviteFormElement();
    await waitFor(() => expect(inviteSubmitButton()).toBeEnabled());
    expect(inviteFormElement()).toBe(form);
    expect(container.querySelectorAll('header, footer, main')).toHaveLength(3);
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(container.querySelectorAll('#invite form')).toHaveLength(1);
  });

  it('leaves the prerendered head as it is: the same title and the same elements, none replaced', async () => {
    // the head that scripts/build.mjs writes into /privacy's page, in place of the suite's own
    const suiteHead = document.head.innerHTML;
    document.head.innerHTML = headHtml('/privacy');
    const title = document.head.querySelector('title');
    const elements = [...document.head.querySelectorAll('meta, link')];
    expect(elements.length).toBeGreaterThan(10);
    try {
      await prerenderAndHydrate('/privacy');
      expect(document.head.querySelector('title')).toBe(title);
      expect(document.title).toBe('Privacy Policy — Sonde');
      const after = [...document.head.querySelectorAll('meta, link')];
      expect(after).toHaveLength(elements.length);
      after.forEach((element, i) => expect(element).toBe(elements[i]));
    } finally {
      document.head.innerHTML = suiteHead;
    }
  });
});
