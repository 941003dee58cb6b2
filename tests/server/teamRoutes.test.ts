// @vitest-environment node
// Every route of the team's API, over real HTTP behind a session: a route that exists answers a method it
// does not take with 405 and `Allow`, as the public API does, and an unknown path stays 404; a refusal the
// API shares with the command line names the API's fields and steps, while the command line keeps its flags.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { privacyRecords } from '../../server/db/schema.ts';
import type { RunningServer } from '../../server/main.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
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
  let database: Database;
  let server: RunningServer;
  let client: ReturnType<typeof teamClient>;
  signedInConsole(engine, (opened) => ({ database, server, client } = opened));
  let sent = 0;
  /** A privacy request of `types`, from its own address, not verified. */
  const privacy = (types: string) => {
    const body = privacyRequestBody();
    body.data.workEmail = `requester-${++sent}@example.com`;
    body.data.useCaseDescription = `CCPA Privacy Rights Request\nRequest types: ${types}\nDetails: None provided`;
    return storeSubmission(database.db, body);
  };

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

  it('names fields and steps in every refusal it shares with the command line, never a flag, a command or a second "error:"; the command line keeps its flags', async () => {
    const cli = teamCli(() => database);
    const invite = await storeSubmission(database.db, submissionBody({ workEmail: 'applicant@example.com' }));
    const [unverified, pastDue] = [await privacy('Delete'), await privacy('Access/Know')];
    await database.db.update(privacyRecords).set({ dueAt: new Date(Date.now() - 86_400_000) }).where(eq(privacyRecords.id, pastDue));
    // each refusal: the console's call, and the same step on the command line
    const cases: Array<[call: [string, Record<string, unknown>], argv: string[], cliWords: RegExp]> = [
      [['/privacy/respond', { id: unverified, outcome: 'denied' }], ['respond', unverified, '--outcome', 'denied'], /^error: --reason is required/],
      [['/privacy/respond', { id: unverified, outcome: 'complied' }], ['respond', unverified, '--outcome', 'complied'], /verify .*--outcome denied/],
      [['/privacy/verify', { id: pastDue }], ['verify', pastDue], /answer it with respond$/],
      [['/decisions', { decision: 'accept', ids: [invite], cohort: 'Nope' }], ['accept', invite, '--cohort', 'Nope'], /create it with cohort add$/],
      [['/preview', { decision: 'accept', ids: [invite], cohort: 'Nope' }], ['accept', invite, '--cohort', 'Nope'], /create it with cohort add$/],
      [['/decisions', { decision: 'waitlist', ids: [unverified] }], ['waitlist', unverified], /answer it with respond \(/],
    ];
    for (const [[path, body], argv, cliWords] of cases) {
      const answer = await client.call('POST', path, { body });
      expect([400, 409], path).toContain(answer.status);
      const error = (answer.json as { error: string }).error;
      expect(error, path).not.toMatch(/(^|\s)--[a-z]|error:|see show|cohort add|with respond|verify [0-9a-f]{8}-/i);
      expect(await cli.run(argv)).toBeGreaterThan(0);
      expect(cli.io.err.join('\n'), argv.join(' ')).toMatch(cliWords);
    }
  });
});
