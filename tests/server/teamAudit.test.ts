// @vitest-environment node
// The team's audit trail (team_audit) holds every team action, on either channel: each team route that
// changes something (every POST of /api/team, over real HTTP) and each command of the command line is
// performed once, and the audit rows it wrote are exactly the ones expected, in the same transaction as
// the change. The lists are checked against the routes Hono registers and the commands commander
// registers, so a new route or command must say what it audits before it passes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandPaths } from '../../server/cli/requests.ts';
import type { Database } from '../../server/db/database.ts';
import { submissions, teamAudit, teamMembers } from '../../server/db/schema.ts';
import { addMember } from '../../server/db/team.ts';
import { createApp } from '../../server/http/app.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { enrollmentMailer, teamClient } from '../support/teamClient.ts';
import { signedInConsole } from '../support/teamServer.ts';

/** One audit row as an auditor reads it: the member by email (null: none), the request, the detail. */
interface Row {
  action: string;
  member: string | null;
  requestId: string | null;
  detail: string | null;
}

const sorted = (rows: Row[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/**
 * `restore` writes a copy into a directory that no process holds and that holds nothing: a new database,
 * whose audit is the copy's own; it is run in tests/server/backup.test.ts, not here.
 */
const NOT_RUN_HERE = ['restore'];

describe.each(testEngines())('the team’s audit trail on $name', (engine) => {
  let database: Database;
  let server: RunningServer;
  let client: ReturnType<typeof teamClient>;
  signedInConsole(engine, (opened) => ({ database, server, client } = opened));
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'sonde-audit-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  let sent = 0;
  const invite = () => storeSubmission(database.db, submissionBody({ workEmail: `applicant-${++sent}@example.com` }));
  /** An Access/Know request from its own address, not verified. */
  const privacy = (email = `requester-${++sent}@example.com`) => {
    const body = privacyRequestBody();
    body.data.workEmail = email;
    body.data.useCaseDescription = 'CCPA Privacy Rights Request\nRequest types: Access/Know\nDetails: None provided';
    return storeSubmission(database.db, body);
  };

  const allRows = async () => {
    const rows = await database.db
      .select({ id: teamAudit.id, action: teamAudit.action, member: teamMembers.email, requestId: teamAudit.requestId, detail: teamAudit.detail })
      .from(teamAudit)
      .leftJoin(teamMembers, eq(teamMembers.id, teamAudit.memberId));
    return rows;
  };
  /** The audit rows `act` wrote. */
  const written = async (act: () => Promise<void>): Promise<Row[]> => {
    const before = new Set((await allRows()).map((row) => row.id));
    await act();
    return sorted((await allRows()).filter((row) => !before.has(row.id)).map((row) => ({ action: row.action, member: row.member, requestId: row.requestId, detail: row.detail })));
  };

  it('writes exactly the expected audit rows for every POST route of the team API, and lists every one of them', async () => {
    const kim = 'kim@sonde.dev';
    const [x, y, z] = [await invite(), await invite(), await invite()];
    const p = await privacy();
    // a second member, whose link registers a passkey, signs in and out
    const link = await addMember(database.db, { email: 'lee@sonde.dev', name: 'Lee', by: 'ops', at: new Date() }, enrollmentMailer(server.publicOrigin));
    const lee = teamClient(server);
    let enrollOptions: Record<string, unknown> = {};
    let signinOptions: Record<string, unknown> = {};
    const ok = async (answer: Promise<{ status: number; json: Record<string, unknown> | null }>, status = 200) => {
      const got = await answer;
      expect(got.status, JSON.stringify(got.json)).toBe(status);
      return got.json ?? {};
    };
    const cases: Array<[route: string, act: () => Promise<void>, expected: Row[]]> = [
      ['/enroll/options', async () => void (enrollOptions = await ok(lee.call('POST', '/enroll/options', { body: { token: link!.token } }))), []],
      [
        '/enroll/verify',
        async () => {
          const response = lee.authenticator.create(enrollOptions.options as PublicKeyCredentialCreationOptionsJSON);
          await ok(lee.call('POST', '/enroll/verify', { body: { token: link!.token, response } }));
        },
        // two actions: the passkey registered, then the session it opens
        [
          { action: 'passkey registered', member: 'lee@sonde.dev', requestId: null, detail: 'console' },
          { action: 'signed in', member: 'lee@sonde.dev', requestId: null, detail: 'enrollment' },
        ],
      ],
      ['/signin/options', async () => void (signinOptions = await ok(lee.call('POST', '/signin/options'))), []],
      [
        '/signin/verify',
        async () => {
          const response = lee.authenticator.get(signinOptions.options as PublicKeyCredentialRequestOptionsJSON);
          await ok(lee.call('POST', '/signin/verify', { body: { challengeId: signinOptions.challengeId, response } }));
        },
        [{ action: 'signed in', member: 'lee@sonde.dev', requestId: null, detail: 'passkey' }],
      ],
      ['/signout', async () => void (await ok(lee.call('POST', '/signout'), 204)), [{ action: 'signed out', member: 'lee@sonde.dev', requestId: null, detail: 'console' }]],
      ['/cohorts', async () => void (await ok(client.call('POST', '/cohorts', { body: { name: 'Two', startsOn: '2027-01-04' } }), 201)), [{ action: 'cohort added', member: kim, requestId: null, detail: 'console' }]],
      [
        '/decisions',
        async () => void (await ok(client.call('POST', '/decisions', { body: { decision: 'waitlist', ids: [x, y], from: { [x]: 'received', [y]: 'received' } } }))),
        // one row per request decided
        [
          { action: 'decision', member: kim, requestId: x, detail: 'waitlist' },
          { action: 'decision', member: kim, requestId: y, detail: 'waitlist' },
        ],
      ],
      ['/notes', async () => void (await ok(client.call('POST', '/notes', { body: { requestId: z, text: 'Call back in May' } }), 201)), [{ action: 'note', member: kim, requestId: z, detail: null }]],
      ['/preview', async () => void (await ok(client.call('POST', '/preview', { body: { decision: 'decline', ids: [z] } }))), []],
      ['/privacy/verify', async () => void (await ok(client.call('POST', '/privacy/verify', { body: { id: p, from: 'unverified' } }))), [{ action: 'decision', member: kim, requestId: p, detail: 'verify' }]],
      [
        '/privacy/extend',
        async () => void (await ok(client.call('POST', '/privacy/extend', { body: { id: p, from: 'verified', reason: 'Gathering the records from two systems.' } }))),
        [{ action: 'decision', member: kim, requestId: p, detail: 'extend' }],
      ],
      [
        '/privacy/respond',
        async () => void (await ok(client.call('POST', '/privacy/respond', { body: { id: p, from: 'verified.extended', outcome: 'complied' } }))),
        [{ action: 'decision', member: kim, requestId: p, detail: 'respond' }],
      ],
    ];
    const registered = createApp({ database, logger: createLogger('silent'), publicOrigin: server.publicOrigin })
      .routes.filter((route) => route.method === 'POST' && route.path.startsWith('/api/team/'))
      .map((route) => route.path.slice('/api/team'.length));
    expect(cases.map(([route]) => route).sort()).toEqual([...new Set(registered)].sort());
    for (const [route, act, expected] of cases) expect(await written(act), `POST ${route}`).toEqual(sorted(expected));
  });

  it('writes exactly the expected audit rows for every command of the command line, without a member, and lists every one of them', async () => {
    const cli = teamCli(() => database, { user: 'ops', publicOrigin: server.publicOrigin });
    const [a, b, c, d, e, f] = [await invite(), await invite(), await invite(), await invite(), await invite(), await invite()];
    const p = await privacy();
    await privacy('erase-me@example.com');
    await database.db.update(submissions).set({ receivedAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(submissions.id, f));
    const cliRow = (action: string, requestId: string | null, detail: string): Row => ({ action, member: null, requestId, detail });
    const lee = 'lee@sonde.dev';
    const cases: Array<[command: string, argv: string[], expected: Row[]]> = [
      // the commands that read (backup writes a file, outside the database): no audit row
      ['list', ['list'], []],
      ['show', ['show', a], []],
      ['export', ['export'], []],
      ['subject', ['subject', '--email', 'erase-me@example.com'], []],
      ['cohort list', ['cohort', 'list'], []],
      ['team list', ['team', 'list'], []],
      ['backup', ['backup', join(work, `copy-${engine.name}.tar.gz`)], []],
      ['cohort add', ['cohort', 'add', 'Two', '--starts', '2027-01-04'], [cliRow('cohort added', null, 'cli')]],
      ['accept', ['accept', a, '--cohort', 'Two', '--by', 'Kim Lee'], [cliRow('decision', a, 'accept (cli)')]],
      // one row per request decided
      ['waitlist', ['waitlist', b, c], [cliRow('decision', b, 'waitlist (cli)'), cliRow('decision', c, 'waitlist (cli)')]],
      ['done', ['done', d], [cliRow('decision', d, 'waitlist (cli)')]],
      ['decline', ['decline', e, '--reason', 'Not a fit yet'], [cliRow('decision', e, 'decline (cli)')]],
      ['spam', ['spam', f], [cliRow('decision', f, 'spam (cli)')]],
      ['reopen', ['reopen', f], [cliRow('decision', f, 'reopen (cli)')]],
      ['note', ['note', a, 'Call back in May'], [cliRow('note', a, 'cli')]],
      ['verify', ['verify', p], [cliRow('decision', p, 'verify (cli)')]],
      ['extend', ['extend', p, '--reason', 'Gathering the records from two systems.'], [cliRow('decision', p, 'extend (cli)')]],
      ['respond', ['respond', p, '--outcome', 'complied'], [cliRow('decision', p, 'respond (cli)')]],
      // without the address or the erased ids: the erasure record keeps the address's hash and the count
      ['erase', ['erase', '--email', 'erase-me@example.com', '--force'], [cliRow('decision', null, 'erase (cli)')]],
      ['purge', ['purge'], [cliRow('decision', null, 'purge (cli)')]],
      // two actions: the member recorded (by the operating-system user), and the link issued to them
      [
        'team add',
        ['team', 'add', lee],
        [
          { action: 'member added', member: lee, requestId: null, detail: 'ops' },
          { action: 'enrollment link issued', member: lee, requestId: null, detail: 'cli' },
        ],
      ],
      ['team link', ['team', 'link', lee], [{ action: 'enrollment link issued', member: lee, requestId: null, detail: 'cli' }]],
      // `f`, reopened and waiting 8 days, is in the digest: queued to lee, one row without a request id (plain `digest` writes none)
      ['digest', ['digest', '--send'], [cliRow('digest sent', null, 'cli')]],
      ['team remove', ['team', 'remove', lee], [{ action: 'member removed', member: lee, requestId: null, detail: 'ops' }]],
    ];
    expect([...cases.map(([command]) => command), ...NOT_RUN_HERE].sort()).toEqual(commandPaths().sort());
    for (const [command, argv, expected] of cases) {
      const rows = await written(async () => {
        const code = await cli.run(argv);
        // backup copies PGlite only: on PostgreSQL it says what to run instead and exits 1, writing nothing
        const expectedCode = command === 'backup' && engine.name !== 'PGlite' ? 1 : 0;
        expect(code, `${argv.join(' ')}: ${cli.io.err.join('\n')}`).toBe(expectedCode);
      });
      expect(rows, argv.join(' ')).toEqual(sorted(expected));
    }
  });
});
