import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { MemoryRouter, type InitialEntry } from 'react-router-dom';
import { AddressBar } from './support/addressBar';
import { vi } from 'vitest';
import type { ActorRefLike } from 'xstate';
import { TeamApp } from '@/app/team/TeamApp';
import type { TeamSessionEvent } from '#machines/teamSessionMachine';

/**
 * Renders the team console (src/app/team/TeamApp.tsx) at `path` in a memory router, inside `<StrictMode>`
 * as src/app/team/hydrate.tsx renders it. `location()` reads the address; `sendToSession` sends an event to
 * the console's session actor, as the console's pages do through TeamSessionContext (`session.ended` when a
 * call answers 401), found by its inspection events (XState's public `inspect` option).
 */
export function renderTeam(path: InitialEntry = '/team', options: { fakeTimers?: boolean } = {}) {
  const user = userEvent.setup(options.fakeTimers ? { advanceTimers: (ms) => vi.advanceTimersByTime(ms) } : {});
  let address = typeof path === 'string' ? path : `${path.pathname ?? '/'}${path.search ?? ''}${path.hash ?? ''}`;
  let session: ActorRefLike | undefined;
  const result = render(
    <StrictMode>
      <MemoryRouter initialEntries={[path]}>
        <TeamApp
          inspect={(inspection) => {
            if (inspection.type === '@xstate.snapshot' && (inspection.snapshot as { machine?: { id: string } }).machine?.id === 'teamSession') {
              session = inspection.actorRef;
            }
          }}
        />
        <AddressBar
          onChange={(next) => {
            address = next;
          }}
        />
      </MemoryRouter>
    </StrictMode>,
  );
  return {
    ...result,
    user,
    location: () => address,
    sendToSession(event: TeamSessionEvent) {
      if (!session) throw new Error('the session actor has not started');
      session.send(event);
    },
  };
}
