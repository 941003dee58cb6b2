import { act, screen, waitFor } from '@testing-library/react';
import { StrictMode, startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { TeamApp } from '@/app/team/TeamApp';
import { signInCopy } from '@/content/team';
import { heldTeamApi } from '../../support/teamNetwork';

let hydrated: { root: Root; container: HTMLElement } | undefined;
afterEach(() => {
  act(() => hydrated?.root.unmount());
  hydrated?.container.remove();
  hydrated = undefined;
});

const consoleAt = (path: string) => (
  <StrictMode>
    <MemoryRouter initialEntries={[path]}>
      <TeamApp />
    </MemoryRouter>
  </StrictMode>
);

it("/team's prerendered sign-in screen (team.html) hydrates on its nodes, with no mismatch, then offers the button", async () => {
  heldTeamApi([]); // no session: 204
  const container = document.createElement('div');
  container.innerHTML = renderToString(consoleAt('/team')); // as src/entry-server.tsx renderTeam prerenders it
  document.body.append(container);
  const nodes = [...container.querySelectorAll('*')];
  expect(screen.getByRole('status')).toHaveTextContent(signInCopy.checking);
  const consoleError = vi.spyOn(console, 'error');
  const recoverable: unknown[] = [];
  await act(async () => {
    startTransition(() => {
      hydrated = { container, root: hydrateRoot(container, consoleAt('/team'), { onRecoverableError: (error) => recoverable.push(error) }) };
    });
  });
  await waitFor(() => expect(screen.getByRole('button', { name: signInCopy.button })).toHaveAttribute('aria-disabled', 'false'));
  expect(recoverable).toEqual([]);
  expect(consoleError).not.toHaveBeenCalled();
  for (const node of nodes) expect(container.contains(node)).toBe(true);
});
