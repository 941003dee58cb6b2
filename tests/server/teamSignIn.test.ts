// @vitest-environment node
// The console's sign-in over real HTTP (WebAuthn Level 3 with @simplewebauthn/server, a software
// authenticator answering the server's own options): enrollment through the command line's link, the
// session in a __Host- cookie, sign-out, sign-in, and every refusal.
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { teamAudit, teamEnrollments, teamMembers, teamPasskeys, teamSessions } from '../../server/db/schema.ts';
import { addMember, removeMember } from '../../server/db/team.ts';
import { purgeExpired } from '../../server/db/retention.ts';
import { PASSKEY_CREDENTIAL_ID_MAX_LENGTH, TEAM_AUTH_ATTEMPTS_PER_MINUTE, TEAM_AUTH_BODY_MAX_BYTES, TEAM_SESSION_IDLE_MS } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { testEngines } from '../support/database.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { enrollmentMailer, teamClient } from '../support/teamClient.ts';

describe.each(testEngines())('team sign-in on $name', (engine) => {
  let database: Database;
  let server: RunningServer;
  let distDir: string;
  let lines: string[];

  beforeAll(async () => {
    distDir = await writeStandInSite();
  });
  beforeEach(async () => {
    database = await engine.open();
    lines = [];
    const capture = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    server = await startTestServer(testConfig(distDir), createLogger('debug', capture), { database });
  });
  afterEach(async () => {
    await server.stop();
    await database.close();
  });

  const add = async (email = 'kim@sonde.dev', name: string | null = 'Kim Lee') => (await addMember(database.db, { email, name, by: 'ops', at: new Date() }, enrollmentMailer()))!.token;
  const actions = async () => (await database.db.select().from(teamAudit).orderBy(teamAudit.at, sql`ctid`)).map((entry) => entry.action);

  it('enrolls through the link, keeps a session in a __Host- cookie, signs out, signs in with the passkey, and reads the queue', async () => {
    const token = await add();
    const client = teamClient(server);
    const enrolled = await client.enroll(token);
    expect(enrolled.status).toBe(200);
    expect(enrolled.json).toEqual({ email: 'kim@sonde.dev', name: 'Kim Lee' });
    const setCookie = enrolled.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-sonde_team=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('Secure');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toMatch(/Domain=/i);
    const sessionToken = client.cookie!.split('=')[1]!;
    expect(JSON.stringify(await database.db.select().from(teamSessions))).not.toContain(sessionToken);
    const [passkey] = await database.db.select().from(teamPasskeys);
    expect(passkey!.id).toBe(client.authenticator.credentials[0]!.id.toString('base64url'));
    expect((await database.db.select().from(teamEnrollments))[0]!.usedAt).not.toBeNull();

    expect((await client.call('GET', '/session')).json).toEqual({ email: 'kim@sonde.dev', name: 'Kim Lee' });
    const signedOut = await client.call('POST', '/signout');
    expect(signedOut.status).toBe(204);
    expect(signedOut.headers.get('set-cookie')).toMatch(/^__Host-sonde_team=; Max-Age=0/);
    expect((await client.call('GET', '/session', { cookie: `__Host-sonde_team=${sessionToken}` })).status).toBe(204); // signed out: no member

    const signedIn = await client.signIn();
    expect(signedIn.status).toBe(200);
    expect(signedIn.json).toEqual({ email: 'kim@sonde.dev', name: 'Kim Lee' });
    expect((await client.call('GET', '/session')).status).toBe(200);
    const queue = await client.call('GET', '/requests');
    expect(queue.status).toBe(200);
    expect(queue.json).toEqual({ requests: [], next: null, counts: {} });
    expect(await actions()).toEqual(['member added', 'enrollment link issued', 'passkey registered', 'signed in', 'signed out', 'signed in']);

    // no log line names the member, the link's token, the session or the credential
    const credentialId = client.authenticator.credentials[0]!.id.toString('base64url');
    for (const secret of ['kim@sonde.dev', 'Kim Lee', token, sessionToken, client.cookie!.split('=')[1]!, credentialId]) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
    expect(lines.some((line) => line.includes('team member signed in'))).toBe(true);
  });

  it('takes an enrollment link once, even when two registrations race on it; a used, expired or unknown link gets one answer', async () => {
    const token = await add();
    const [first, second] = [teamClient(server), teamClient(server)];
    const options = await Promise.all([first, second].map((client) => client.call('POST', '/enroll/options', { body: { token } })));
    const answers = await Promise.all(
      [first, second].map((client, i) =>
        client.call('POST', '/enroll/verify', { body: { token, response: client.authenticator.create(options[i]!.json!.options as never) } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    expect(await database.db.select().from(teamPasskeys)).toHaveLength(1);

    const used = await first.call('POST', '/enroll/options', { body: { token } });
    const unknown = await first.call('POST', '/enroll/options', { body: { token: 'A'.repeat(43) } });
    const expiring = await add('lin@sonde.dev');
    await database.db.update(teamEnrollments).set({ expiresAt: new Date(Date.now() - 1) }).where(sql`member_id = (select id from team_members where email = 'lin@sonde.dev')`);
    const expired = await first.call('POST', '/enroll/options', { body: { token: expiring } });
    for (const answer of [used, unknown, expired]) {
      expect(answer.status).toBe(410);
      expect(answer.json).toEqual(used.json);
    }
    expect((await first.enroll(expiring)).status).toBe(410);
  });

  it('refuses a registration from another origin, for another RP ID, or without user verification, and the link stays good', async () => {
    const token = await add();
    const client = teamClient(server);
    for (const tweaks of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }]) {
      const answer = await client.enroll(token, tweaks);
      expect(answer.status, JSON.stringify(tweaks)).toBe(400);
      expect(client.cookie).toBeUndefined();
    }
    expect(await database.db.select().from(teamPasskeys)).toHaveLength(0);
    expect((await client.enroll(token)).status).toBe(200);
  });

  it('refuses a sign-in from another origin, for another RP ID, without user verification, with a foreign user handle, an unknown passkey or a used challenge; each audited', async () => {
    const client = teamClient(server);
    expect((await client.enroll(await add())).status).toBe(200);
    client.cookie = undefined;
    for (const tweaks of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }, { userHandle: 'AAAA' }]) {
      const answer = await client.signIn(tweaks);
      expect(answer.status, JSON.stringify(tweaks)).toBe(401);
      expect(answer.json).toEqual({ error: 'Sign-in failed' });
    }
    const stranger = teamClient(server);
    // a passkey made for this RP ID but never registered here
    stranger.authenticator.create({ rp: { id: 'localhost', name: 'Sonde team' }, user: { id: 'AAAA', name: 'x', displayName: 'x' }, challenge: 'AAAA', pubKeyCredParams: [] });
    expect((await stranger.signIn()).status).toBe(401);

    const options = await client.call('POST', '/signin/options');
    const response = client.authenticator.get(options.json!.options as never);
    expect((await client.call('POST', '/signin/verify', { body: { challengeId: options.json!.challengeId, response } })).status).toBe(200);
    expect((await client.call('POST', '/signin/verify', { body: { challengeId: options.json!.challengeId, response } })).status).toBe(401);

    const failures = await database.db.select().from(teamAudit).where(eq(teamAudit.action, 'sign-in failed'));
    expect(failures).toHaveLength(6);
    const kim = (await database.db.select().from(teamMembers))[0]!;
    expect(failures.filter((f) => f.memberId === null)).toHaveLength(1);
    expect(failures.filter((f) => f.memberId === kim.id)).toHaveLength(5);
    expect(lines.filter((line) => line.includes('kim@sonde.dev'))).toEqual([]);
  });

  it('answers 401 without a session (the session question 204), 403 to a foreign or missing Origin even with a session, and no-store to every call', async () => {
    const client = teamClient(server);
    // who is signed in: nobody, which is no failure; a stale cookie is cleared
    expect((await client.call('GET', '/session')).status).toBe(204);
    const stale = await client.call('GET', '/session', { cookie: '__Host-sonde_team=' + 'x'.repeat(43) });
    expect([stale.status, stale.json, stale.headers.get('set-cookie')]).toEqual([204, null, expect.stringMatching(/^__Host-sonde_team=; Max-Age=0/)]);
    for (const [method, path] of [['GET', '/requests'], ['GET', '/requests/00000000-0000-4000-8000-000000000000'], ['POST', '/signout']] as const) {
      expect((await client.call(method, path)).status, path).toBe(401);
      expect((await client.call(method, path, { cookie: '__Host-sonde_team=' + 'x'.repeat(43) })).status, path).toBe(401);
    }
    expect((await client.enroll(await add())).status).toBe(200);
    for (const [method, path] of [['GET', '/session'], ['GET', '/requests'], ['POST', '/signout'], ['POST', '/signin/options'], ['POST', '/enroll/options']] as const) {
      const answer = await client.call(method, path, { origin: 'https://evil.example' });
      expect(answer.status, path).toBe(403);
      expect(answer.json).toEqual({ error: 'Origin not allowed' });
    }
    // the listen address's own origin may send the public form, never call the team's API
    expect(server.publicOrigin).toMatch(/^http:\/\/localhost:\d+$/);
    expect((await client.call('GET', '/session', { origin: server.url })).status).toBe(403);
    expect((await client.call('POST', '/signout', { origin: null })).status).toBe(403);
    expect((await client.call('GET', '/session', { origin: null })).status).toBe(200);
    const crossSite = await fetch(`${server.url}/api/team/session`, { headers: { cookie: client.cookie!, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect((await client.call('GET', '/nothing-here')).status).toBe(404);
    // the ceremonies take JSON, of at most TEAM_AUTH_BODY_MAX_BYTES, of their shape
    const post = (body: string, type = 'application/json') =>
      fetch(`${server.url}/api/team/enroll/options`, { method: 'POST', headers: { origin: server.publicOrigin, 'content-type': type }, body });
    expect((await post('{"token":"x"}', 'text/plain')).status).toBe(415);
    expect((await post(JSON.stringify({ token: 'x'.repeat(TEAM_AUTH_BODY_MAX_BYTES) }))).status).toBe(413);
    expect((await post('{"token":')).status).toBe(400);
    expect((await post('{"token":"short"}')).status).toBe(400);
    // a credential id is base64url: a NUL in it never reaches the database (no session needed to send one)
    const verify = await fetch(`${server.url}/api/team/signin/verify`, {
      method: 'POST',
      headers: { origin: server.publicOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ challengeId: '00000000-0000-4000-8000-000000000000', response: { id: 'zz\u0000', rawId: 'zz\u0000', type: 'public-key', response: {} } }),
    });
    expect(verify.status).toBe(400);
  });

  it("ends a removed member's sessions, and a session past its idle or absolute limit (deleted when met, and by the purge)", async () => {
    const kim = teamClient(server);
    expect((await kim.enroll(await add())).status).toBe(200);
    await removeMember(database.db, 'kim@sonde.dev', new Date(), 'ops');
    expect((await kim.call('GET', '/session')).status).toBe(204);
    expect((await kim.signIn()).status).toBe(401);

    const lin = teamClient(server);
    expect((await lin.enroll(await add('lin@sonde.dev', null))).status).toBe(200);
    const now = Date.now();
    await database.db.update(teamSessions).set({ lastSeenAt: new Date(now - TEAM_SESSION_IDLE_MS + 60_000) });
    expect((await lin.call('GET', '/session')).status).toBe(200); // a minute inside the idle limit, and the call starts it again
    expect((await database.db.select().from(teamSessions))[0]!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(now);
    const held = lin.cookie;
    await database.db.update(teamSessions).set({ lastSeenAt: new Date(now - TEAM_SESSION_IDLE_MS - 1_000) });
    expect((await lin.call('GET', '/session')).status).toBe(204);
    expect(await database.db.select().from(teamSessions)).toHaveLength(0);

    expect((await lin.signIn()).status).toBe(200);
    await database.db.update(teamSessions).set({ expiresAt: new Date(now - 1_000) });
    expect((await lin.call('GET', '/requests')).status).toBe(401);
    expect((await lin.call('GET', '/session', { cookie: held })).status).toBe(204);

    expect((await lin.signIn()).status).toBe(200);
    await database.db.update(teamSessions).set({ expiresAt: new Date(now - 1_000) });
    expect((await purgeExpired(database.db, new Date())).teamSessions).toBe(1);
  });

  it(`reads a credential id of PASSKEY_CREDENTIAL_ID_MAX_LENGTH (${PASSKEY_CREDENTIAL_ID_MAX_LENGTH}) characters, and refuses one more unread`, async () => {
    const client = teamClient(server);
    const { challengeId } = (await client.call('POST', '/signin/options')).json as { challengeId: string };
    const withId = (length: number) => ({ challengeId, response: { id: 'A'.repeat(length), rawId: 'A'.repeat(length), type: 'public-key', response: {} } });
    // at the limit: looked up, and an unknown passkey
    expect(await client.call('POST', '/signin/verify', { body: withId(PASSKEY_CREDENTIAL_ID_MAX_LENGTH) })).toMatchObject({ status: 401 });
    const over = await client.call('POST', '/signin/verify', { body: withId(PASSKEY_CREDENTIAL_ID_MAX_LENGTH + 1) });
    expect({ status: over.status, json: over.json }).toEqual({ status: 400, json: { error: 'Body must be { "challengeId": uuid, "response": AuthenticationResponseJSON }' } });
  });

  it(`answers 429 with Retry-After past ${TEAM_AUTH_ATTEMPTS_PER_MINUTE} sign-in and enrollment calls a minute from one address, not at it`, async () => {
    const client = teamClient(server);
    for (let i = 0; i < TEAM_AUTH_ATTEMPTS_PER_MINUTE - 1; i += 1) expect((await client.call('POST', '/signin/options')).status).toBe(200);
    expect((await client.call('POST', '/enroll/options', { body: { token: 'A'.repeat(43) } })).status).toBe(410);
    const refused = await client.call('POST', '/signin/verify', { body: {} });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json).toEqual({ error: 'Too many attempts from your address; try again in a minute' });
  });
});
