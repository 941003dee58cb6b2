// @vitest-environment node
// Every route of the team's API, over real HTTP behind a session: a route that exists answers a method it
// does not take with 405 and `Allow`, as the public API does, and an unknown path stays 404.
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/main.ts';
import { testEngines } from '../support/database.ts';
import type { teamClient } from '../support/teamClient.ts';
import { signedInConsole } from '../support/teamServer.ts';

/** Every path of the team's API (server/http/team/*.ts) and the methods it takes, as `Allow` names them. */
const ROUTES: Array<[path: string, allow: string]> = [
  ['/enroll/options', 'POST'],
  ['/enroll/verify', 'POST'],
  ['/signin/options', 'POST'],
  ['/signin/verify', 'POST'],
  ['/signout', 'POST'],
  ['/session', 'GET, HEAD'],
  ['/decisions', 'POST'],
  ['/notes', 'POST'],
  ['/cohorts', 'GET, HEAD, POST'],
  ['/privacy/verify', 'POST'],
  ['/privacy/extend', 'POST'],
  ['/privacy/respond', 'POST'],
  ['/preview', 'POST'],
  ['/requests.csv', 'GET, HEAD'],
  ['/requests', 'GET, HEAD'],
  ['/requests/00000000-0000-4000-8000-000000000000', 'GET, HEAD'],
];

describe.each(testEngines())('the team API’s routes on $name', (engine) => {
  let server: RunningServer;
  let client: ReturnType<typeof teamClient>;
  signedInConsole(engine, (opened) => ({ server, client } = opened));

  /** `method` on `path` under /api/team, signed in, from the console's origin. */
  const send = (method: string, path: string) =>
    fetch(`${server.url}/api/team${path}`, { method, headers: { origin: server.publicOrigin, cookie: client.cookie! } });

  it('answers PUT, DELETE, PATCH and OPTIONS on every route that exists with 405 and Allow, and an unknown path with 404', async () => {
    for (const [path, allow] of ROUTES) {
      for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const answer = await send(method, path);
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers.get('allow'), `${method} ${path}`).toBe(allow);
        expect(answer.headers.get('cache-control')).toBe('no-store');
        expect(await answer.json()).toEqual({ error: `Use ${allow.split(', ')[0]}` });
      }
    }
    const unknown = await send('PUT', '/no-such-route');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Not found' });
  });
});
