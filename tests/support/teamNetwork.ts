import { http, HttpResponse } from 'msw';
import { TEAM_API_PATH } from '#shared/team';
import { server } from '../../mocks/node';

/** The team's calls a model test holds until its step answers them. */
export type HeldCall = 'queue' | 'preview' | 'decide';

const ROUTES: Record<HeldCall, { method: 'get' | 'post'; path: string }> = {
  queue: { method: 'get', path: '/requests' },
  preview: { method: 'post', path: '/preview' },
  decide: { method: 'post', path: '/decisions' },
};

/**
 * Holds the team's queue, preview and decision calls until the test answers them (DESIGN.md §3: so that
 * `loading` or `submitting` can be asserted), the other routes answered as usual. Every call held of a
 * kind is answered alike: under StrictMode a page's first actor is stopped and its call's answer ignored.
 */
export function holdTeamCalls() {
  const held: Record<HeldCall, Array<(response: Response) => void>> = { queue: [], preview: [], decide: [] };
  for (const [kind, route] of Object.entries(ROUTES) as Array<[HeldCall, (typeof ROUTES)[HeldCall]]>) {
    server.use(http[route.method](`${TEAM_API_PATH}${route.path}`, () => new Promise<Response>((resolve) => held[kind].push(resolve))));
  }
  const release = (kind: HeldCall, response: () => Response) => {
    const waiting = held[kind].splice(0);
    if (waiting.length === 0) throw new Error(`no ${kind} call is waiting for an answer`);
    for (const resolve of waiting) resolve(response());
  };
  return {
    /** Answers every waiting call of `kind` with `status` and the JSON `body`. */
    answer: (kind: HeldCall, status: number, body: unknown) => release(kind, () => HttpResponse.json(body as Record<string, unknown>, { status })),
    /** Fails every waiting call of `kind` as the network does (no answer). */
    fail: (kind: HeldCall) => release(kind, () => HttpResponse.error()),
    /** How many calls of `kind` wait. */
    waiting: (kind: HeldCall) => held[kind].length,
  };
}
