// @vitest-environment node
// Who may use the console (server/cli/team.ts, server/db/team.ts): the command line on the server adds,
// links and removes members; an enrollment link is 32 random bytes of which only the SHA-256 is kept,
// good for 24 h; removing a member revokes its passkeys and ends its sessions; the audit is append-only.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { teamAudit, teamEnrollments, teamMembers, teamPasskeys, teamSessions } from '../../server/db/schema.ts';
import { TEAM_ENROLLMENT_TTL_MS, TEAM_SESSION_MAX_MS } from '../../server/limits.ts';
import { cliProcess, teamCli } from '../support/cli.ts';
import { migratedPgliteDir, testEngines } from '../support/database.ts';

const ORIGIN = 'https://sonde.dev';
const LINK = /^(\S+) added\. Enrollment link: https:\/\/sonde\.dev\/team\/enroll#token=([A-Za-z0-9_-]{43}) \(single use, good until (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC\)$/;

describe.each(testEngines())('team members on $name', (engine) => {
  let database: Database;
  const { io, run } = teamCli(() => database, { publicOrigin: ORIGIN, user: 'ops' });

  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(async () => {
    await database.close();
  });

  const member = async (email: string) => (await database.db.select().from(teamMembers).where(eq(teamMembers.email, email)))[0];

  it('adds a member with a single-use enrollment link good for 24 h, keeping only its SHA-256', async () => {
    const at = new Date('2026-11-26T10:00:00.000Z');
    expect(await run(['team', 'add', 'Kim@Sonde.dev', '--name', 'Kim Lee'], at)).toBe(0);
    const [, address, token, until] = LINK.exec(io.out[0]!)!;
    expect(address).toBe('kim@sonde.dev');
    expect(until).toBe('2026-11-27 10:00');
    const [enrollment] = await database.db.select().from(teamEnrollments);
    expect(enrollment).toMatchObject({
      tokenSha256: createHash('sha256').update(token!).digest('hex'),
      expiresAt: new Date(at.getTime() + TEAM_ENROLLMENT_TTL_MS),
      usedAt: null,
    });
    expect(JSON.stringify(await database.db.select().from(teamEnrollments))).not.toContain(token!);
    expect(await member('kim@sonde.dev')).toMatchObject({ name: 'Kim Lee', createdBy: 'ops', removedAt: null, webauthnUserId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    expect(await run(['team', 'add', 'kim@sonde.dev'])).toBe(1);
    expect(io.err).toEqual(['kim@sonde.dev is a member already: team link kim@sonde.dev gives a new enrollment link']);
    expect(await run(['team', 'link', 'kim@sonde.dev'])).toBe(0);
    expect(io.out[0]).toMatch(/^Enrollment link for kim@sonde\.dev: https:\/\/sonde\.dev\/team\/enroll#token=[A-Za-z0-9_-]{43} /);
    expect(io.out[0]).not.toContain(token!);
    // one good link at a time: the new one ends the first
    expect(await database.db.select().from(teamEnrollments)).toHaveLength(1);
    expect(await run(['team', 'link', 'lin@sonde.dev'])).toBe(1);
    expect(io.err).toEqual(['lin@sonde.dev is not a member: add them with team add']);
  });

  it('removes a member: passkeys, links and every session gone at once; the member stays listed as removed, and can be added back', async () => {
    expect(await run(['team', 'add', 'kim@sonde.dev'])).toBe(0);
    const kim = (await member('kim@sonde.dev'))!;
    const now = new Date();
    await database.db.insert(teamPasskeys).values({ id: 'credential-1', memberId: kim.id, publicKey: new Uint8Array([1, 2, 3]) });
    await database.db.insert(teamSessions).values({ tokenSha256: 'a'.repeat(64), memberId: kim.id, expiresAt: new Date(now.getTime() + TEAM_SESSION_MAX_MS) });
    expect(await run(['team', 'list'])).toBe(0);
    expect(io.out[0]).toMatch(/\nkim@sonde\.dev\s+1\s+1\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+ops\s*$/);

    expect(await run(['team', 'remove', 'kim@sonde.dev'])).toBe(0);
    expect(io.out).toEqual(['kim@sonde.dev removed: their passkeys are revoked and their sessions ended']);
    for (const table of [teamPasskeys, teamSessions, teamEnrollments]) expect(await database.db.select().from(table)).toEqual([]);
    expect((await member('kim@sonde.dev'))!.removedAt).toBeInstanceOf(Date);
    expect(await run(['team', 'remove', 'kim@sonde.dev'])).toBe(1);
    expect(io.err).toEqual(['kim@sonde.dev is not a member']);
    expect(await run(['team', 'link', 'kim@sonde.dev'])).toBe(1);

    expect(await run(['team', 'add', 'kim@sonde.dev'])).toBe(0);
    expect((await member('kim@sonde.dev'))!).toMatchObject({ id: kim.id, removedAt: null });
    const audit = await database.db.select().from(teamAudit).orderBy(teamAudit.at);
    expect(audit.map((entry) => [entry.action, entry.memberId])).toEqual([
      ['member added', kim.id],
      ['enrollment link issued', kim.id],
      ['member removed', kim.id],
      ['member added', kim.id],
      ['enrollment link issued', kim.id],
    ]);
  });

  it('keeps the audit append-only: the database refuses to change or delete an entry', async () => {
    expect(await run(['team', 'add', 'kim@sonde.dev'])).toBe(0);
    await expect(database.db.execute(sql`update team_audit set action = 'signed in'`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from team_audit`)).rejects.toThrow();
    expect(await database.db.select().from(teamAudit)).toHaveLength(2);
  });

  it.each([
    [['team', 'add', 'not-an-address'], /expected an email address/],
    [['team', 'add', 'kim@sonde.dev', '--name', 'Kim\u001b[2J'], /the text contains a/],
    [['team', 'remove'], /missing required argument 'email'/],
  ])('refuses bad arguments with one line and exit 2: %j', async (argv, message) => {
    expect(await run(argv)).toBe(2);
    expect(io.err).toHaveLength(1);
    expect(io.err[0]).toMatch(message);
    expect(await database.db.select().from(teamMembers)).toEqual([]);
  });
});

describe('team add on a default start', () => {
  it('prints an enrollment link at http://localhost:4173, where passkeys work (WebAuthn takes no IP address as RP ID)', async () => {
    const dir = await migratedPgliteDir();
    const env = { DATABASE_URL: '', SONDE_PGLITE_DIR: dir, HOST: '', PORT: '', SONDE_PUBLIC_ORIGIN: '', SONDE_ALLOWED_ORIGINS: '' };
    const added = await cliProcess(['team', 'add', 'you@example.com'], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^you@example\.com added\. Enrollment link: http:\/\/localhost:4173\/team\/enroll#token=[A-Za-z0-9_-]{43} /);
  });
});
