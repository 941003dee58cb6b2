import { screen, waitFor, within } from '@testing-library/dom';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { App } from '@/app/App';
import { preloadAllPages } from '@/app/routes';
import { hydrateInTasks } from '@/components/deferHydration';
import { inviteFormElement, inviteSubmitButton } from '../inviteFixtures';

await preloadAllPages();

const app = (
  <MemoryRouter initialEntries={['/']}>
    <App />
  </MemoryRouter>
);

/** The footer's opt-out button (spec §4): disabled until the footer has hydrated. */
const optOutButton = () => within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Do Not Sell or Share My Personal Information' });

/** The prerendered HTML of `/` in the document, as the browser has it before any script runs. */
function prerenderHome(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = renderToString(app);
  document.body.append(root);
  return root;
}

describe('hydrating / section by section, the layout, header and footer each in a task (issue #13)', () => {
  it('keeps every prerendered node while the sections wait, then makes the invite form work', async () => {
    const root = prerenderHome();
    const heading = screen.getByRole('heading', { level: 1 });
    const form = inviteFormElement();
    const faq = root.querySelector('#faq');
    const header = screen.getByRole('banner');
    const footer = screen.getByRole('contentinfo');
    const before = root.innerHTML;

    hydrateInTasks(() => hydrateRoot(root, app));
    // what the hydration itself does settles in microtasks; the sections wait for tasks of their own, so
    // the page is still the prerendered one, its submit button still disabled
    for (let microtask = 0; microtask < 10; microtask += 1) await Promise.resolve();
    expect(root.innerHTML).toBe(before);
    expect(inviteSubmitButton()).toBeDisabled();
    expect(optOutButton()).toBeDisabled();

    // each in a task of its own: the form ends up working, on the very nodes that were prerendered
    await waitFor(() => expect(inviteSubmitButton()).toBeEnabled());
    await waitFor(() => expect(optOutButton()).toBeEnabled());
    expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
    expect(inviteFormElement()).toBe(form);
    expect(root.querySelector('#faq')).toBe(faq);
    // the layout, its header and its footer hydrate in tasks of their own too, on the prerendered nodes
    expect(screen.getByRole('banner')).toBe(header);
    expect(screen.getByRole('contentinfo')).toBe(footer);
    expect(root.querySelectorAll('header, footer, main')).toHaveLength(3);
    expect(root.querySelectorAll('h1')).toHaveLength(1);
    expect(root.querySelectorAll('#invite form')).toHaveLength(1);
    root.remove();
  });
});
