import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { http, HttpResponse } from 'msw';
import { StrictMode } from 'react';
import { MemoryRouter, Outlet } from 'react-router-dom';
import { AddressBar } from './addressBar';
import { expect, vi } from 'vitest';
import { InspectContext, type Inspect } from '@/context/inspect';
import { TeamSessionContext } from '@/context/team';
import { TeamRoutes } from '@/app/team/TeamRoutes';
import { TEAM_API_PATH } from '#shared/team';
import { teamHandlers } from '../../mocks/teamHandlers';
import { server } from '../../mocks/node';
import { network, type SentRequest } from './network';

/**
 * The console's pages at `path` (`/team`, `/team/requests/:id`, `/team/cohorts`), routed as the app
 * routes them (src/app/team/TeamRoutes.tsx) in a memory router, each in a bare `<main>` in place of the
 * console's frame (no sign-in gate), inside the session's context as the frame provides it, in
 * StrictMode (the team's API answered as {@link answerTeamApi} sets it up). `sessionEnded()` counts the `session.ended` events the session received.
 */
export function renderConsole(path: string, options: { fakeTimers?: boolean; inspect?: Inspect } = {}) {
  const user = userEvent.setup(options.fakeTimers ? { advanceTimers: (ms) => vi.advanceTimersByTime(ms) } : {});
  let address = path;
  let ended = 0;
  const inspectSession: Inspect = (inspection) => {
    if (inspection.type === '@xstate.event' && inspection.event.type === 'session.ended') ended += 1;
  };
  const result = render(
    <StrictMode>
      <MemoryRouter initialEntries={[path]}>
        <InspectContext.Provider value={options.inspect}>
          <TeamSessionContext.Provider options={{ inspect: inspectSession }}>
            <TeamRoutes
              frame={
                <main>
                  <Outlet />
                </main>
              }
            />
          </TeamSessionContext.Provider>
        </InspectContext.Provider>
        <AddressBar
          onChange={(next) => {
            address = next;
          }}
        />
      </MemoryRouter>
    </StrictMode>,
  );
  return { ...result, user, location: () => address, sessionEnded: () => ended };
}

/**
 * The team's API answered by mocks/teamHandlers.ts for the test that calls it (a `beforeEach`); a test's
 * own `server.use(...)` after it takes precedence (tests/setup.ts resets both after each test).
 */
export function answerTeamApi() {
  server.use(...teamHandlers);
}

/** The queue's live region: what it says of the counts and the results. */
export const queueStatus = () => document.getElementById('queue-status')!;

/** The team's calls sent so far to `path` (under /api/team), with `method`. */
export function teamCalls(method: 'GET' | 'POST', path: string): SentRequest[] {
  return network.all().filter((request) => request.method === method && new URL(request.url).pathname === `${TEAM_API_PATH}${path}`);
}

/** Every route of the team's API answering `status` with `{ error, refusals }`, for the one test that needs it. */
export function teamAnswers(method: 'get' | 'post', path: string, status: number, body: Record<string, unknown> = { error: `status ${status}` }) {
  server.use(http[method](`${TEAM_API_PATH}${path}`, async () => (status === 0 ? HttpResponse.error() : HttpResponse.json(body, { status }))));
}

/** axe-core on the rendered page: no WCAG 2.2 AA violation (colour contrast is checked in a real browser: jsdom computes no colours). */
export async function expectNoAxeViolations(container: HTMLElement) {
  const results = await axe.run(container, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}
