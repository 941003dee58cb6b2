// @vitest-environment node
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { PGLITE_DIR_MODE } from '../../server/db/pgliteDir.ts';
import { erasures, privacyRecords, submissions } from '../../server/db/schema.ts';
import { type RequestSummary } from '../../server/cli/requests.ts';
import { TEAM_SOCKET_FILE } from '../../server/cli/teamChannel.ts';
import { teamCli } from '../support/cli.ts';
import { acceptSubmission } from '../../server/db/submissions.ts';
import { migratedPgliteDir, migratedPgliteTarball, storeSubmission, testEngines } from '../support/database.ts';
import { until } from '../support/mailServer.ts';
import { PGLITE_NODE_FLAGS } from '../support/nodeFlags.ts';
import { serversKilledAfterEach } from '../support/process.ts';
import { writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';

const DAY_MS = 86_400_000;

/**
 * The command line on `database()`, in-process: `run(argv, now)` resolves with the exit code and leaves
 * what was printed in `out` / `err`; `store(body, receivedAt?)` seeds a request as the server would.
 */
function cliOn(database: () => Database) {
  const { io, run } = teamCli(database, { user: 'ada' });
  const store = async (body: ReturnType<typeof submissionBody>, receivedAt?: Date) => {
    const { db } = database();
    const outcome = await acceptSubmission(db, { body, idempotencyKey: null, clientIp: '198.51.100.7', limitPerWindow: 100, windowMs: 60_000 });
    if (outcome.status !== 'stored') throw new Error(outcome.status);
    if (receivedAt) {
      await db.update(submissions).set({ receivedAt }).where(eq(submissions.id, outcome.id));
      await db.update(privacyRecords).set({ receivedAt }).where(eq(privacyRecords.id, outcome.id));
    }
    return outcome.id;
  };
  const clear = () => {
    io.out.length = 0;
    io.err.length = 0;
  };
  return { io, run, store, clear };
}

describe.each(testEngines())('npm run requests on $name', (engine) => {
  let database: Database;
  let inviteId: string;
  let privacyId: string;
  const { io, run, store, clear } = cliOn(() => database);
  const out = io.out;
  const err = io.err;

  beforeAll(async () => {
    database = await engine.open();
    inviteId = await store(
      submissionBody({ fullName: 'Grace "Amazing" Hopper, PhD', useCaseDescription: 'Line one, with a comma\nline "two"', websiteUrl: 'https://navy.example' }),
    );
    privacyId = await store(privacyRequestBody());
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(clear);

  it('lists both requests newest first, the privacy one with its due date and days left', async () => {
    expect(await run(['list'])).toBe(0);
    const [text] = out;
    const lines = text!.split('\n');
    expect(lines[0]).toMatch(/^id\s+received \(UTC\)\s+kind\s+name\s+email\s+company\s+status\s+identity\s+due\s*$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(privacyId);
    expect(lines[1]).toMatch(/privacy\s+Grace Hopper\s+Grace@example\.com\s+N\/A\s+open\s+unverified\s+due \d{4}-\d{2}-\d{2} \(45 d left\)/);
    expect(text).toContain(inviteId);
  });

  it('marks an overdue privacy request', async () => {
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, privacyId));
    expect(await run(['list', '--kind', 'privacy'], new Date(row!.receivedAt.getTime() + 48 * DAY_MS))).toBe(0);
    expect(out[0]).toMatch(/OVERDUE since \d{4}-\d{2}-\d{2} \(3 d\)/);
  });

  it('prints JSON for scripts, with ISO 8601 dates, and filters by kind', async () => {
    expect(await run(['list', '--json', '--kind', 'privacy'])).toBe(0);
    const requests = JSON.parse(out[0]!) as RequestSummary[];
    expect(requests).toEqual([
      {
        id: privacyId,
        kind: 'privacy',
        receivedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        fullName: 'Grace Hopper',
        email: 'Grace@example.com',
        company: 'N/A',
        status: 'open',
        dueAt: expect.stringMatching(/Z$/),
        daysLeft: 45,
        verification: 'unverified',
        course: 'unverified',
      },
    ]);
  });

  it('shows everything stored for one request, metadata included', async () => {
    expect(await run(['show', inviteId])).toBe(0);
    const shown = JSON.parse(out[0]!) as { id: string; stored: { body: { data: Record<string, unknown> } } };
    expect(shown.id).toBe(inviteId);
    expect(shown.stored.body.data).toMatchObject({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', timezone: 'Europe/London', clientIP: '203.0.113.9' });
    expect(JSON.stringify(shown)).not.toContain('clientKey');
  });

  it('exports CSV that a spreadsheet reads back field for field: commas, quotes and newlines quoted', async () => {
    expect(await run(['export', '--format', 'csv', '--kind', 'invite'])).toBe(0);
    const records = parse(out[0]!, { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      id: inviteId,
      kind: 'invite',
      fullName: 'Grace "Amazing" Hopper, PhD',
      useCaseDescription: 'Line one, with a comma\nline "two"',
      websiteUrl: 'https://navy.example',
      primaryWorkloads: 'RAG',
      consentGiven: 'true',
      screenResolution: '1280x800',
    });
  });

  it('exports JSON with every field', async () => {
    expect(await run(['export', '--format', 'json'])).toBe(0);
    const rows = JSON.parse(out[0]!) as Array<{ id: string; data: Record<string, unknown> }>;
    expect(rows.map((row) => row.id).sort()).toEqual([inviteId, privacyId].sort());
    expect(rows.find((row) => row.id === privacyId)?.data).toMatchObject({ notes: 'CCPA RIGHTS REQUEST' });
  });

  it('done puts an invite request on the waitlist with who, when and a note, once; a privacy request is answered with respond', async () => {
    const now = new Date();
    expect(await run(['done', inviteId, '--note', 'Invited to cohort 3'], now)).toBe(0);
    expect(out[0]).toBe(`request ${inviteId} waitlisted by ada; the mail goes out with the server's outbox`);
    clear();
    expect(await run(['list', '--json', '--status', 'done'])).toBe(0);
    expect(JSON.parse(out[0]!)).toEqual([
      expect.objectContaining({ id: inviteId, status: 'done', state: 'waitlisted', handledAt: now.toISOString(), handledBy: 'ada', note: 'Invited to cohort 3' }),
    ]);
    clear();
    expect(await run(['done', inviteId])).toBe(1);
    expect(err).toEqual([`nothing changed: request ${inviteId} is waitlisted: waitlist is possible only when it is received`]);
    clear();
    expect(await run(['done', privacyId])).toBe(1);
    expect(err).toEqual([`nothing changed: request ${privacyId} is a privacy request: answer it with respond (the record and the mail the law asks for)`]);
  });

  it('answers an unknown id with "no request <id>" and exit 1', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      clear();
      expect(await run(['show', id])).toBe(1);
      expect(err).toEqual([`no request ${id}`]);
    }
    expect(await run(['done', '00000000-0000-4000-8000-000000000000'])).toBe(1);
  });

  it.each([
    [['list', '--kind', 'signup']],
    [['list', '--status', 'closed']],
    [['list', '--since', '2026-13-45']],
    [['list', '--since', '2026-02-30']],
    [['list', '--since', '2025-02-29']],
    [['export', '--format', 'xlsx']],
    [['show']],
    [['frobnicate']],
  ])('refuses bad arguments %j with one line and exit 2', async (argv) => {
    expect(await run(argv)).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^error: /);
  });
});

describe.each(testEngines())('hostile text in the team\'s tools on $name', (engine) => {
  let database: Database;
  const { io, run, store, clear } = cliOn(() => database);
  const formulas = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx'];

  beforeAll(async () => {
    database = await engine.open();
    // Rows stored before the text rule (or written by any other path): the tools must be safe anyway.
    await store(
      submissionBody({
        fullName: formulas[0],
        roleTitle: formulas[1],
        companyName: 'Acme\u202eexe.txt\u200b',
        estimatedMonthlyQueries: formulas[2],
        peakQPS: formulas[3],
        targetLatency: formulas[4],
        budgetRange: formulas[5],
        websiteUrl: 'https://a.example/\u001b[2J\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007',
        notes: 'line\u2028separator\u0085',
      }),
    );
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(clear);

  it('exports CSV with every formula neutralised by a leading quote (CWE-1236), and JSON exactly', async () => {
    expect(await run(['export', '--format', 'csv'])).toBe(0);
    const [record] = parse(io.out[0]!, { columns: true, relax_quotes: true }) as Array<Record<string, string>>;
    expect(record).toMatchObject({
      fullName: `'${formulas[0]}`,
      roleTitle: `'${formulas[1]}`,
      estimatedMonthlyQueries: `'${formulas[2]}`,
      peakQPS: `'${formulas[3]}`,
      targetLatency: `'${formulas[4]}`,
      budgetRange: `'${formulas[5]}`,
    });
    clear();
    expect(await run(['export', '--format', 'json'])).toBe(0);
    const [exact] = JSON.parse(io.out[0]!) as Array<{ data: Record<string, string> }>;
    expect(exact!.data).toMatchObject({ fullName: formulas[0], roleTitle: formulas[1], companyName: 'Acme\u202eexe.txt\u200b' });
  });

  it('never prints a control, a direction override or an invisible character raw: list, show, export json', async () => {
    // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    // each run empties io.out: what every run printed, in order
    const outputs: string[] = [];
    const runAndKeep = async (argv: string[]) => {
      const code = await run(argv);
      outputs.push(...io.out);
      return code;
    };
    expect(await runAndKeep(['list'])).toBe(0);
    expect(outputs[0]).toContain('Acme\\u{202E}exe.txt\\u{200B}');
    const id = /[0-9a-f-]{36}/.exec(outputs[0]!)![0];
    expect(await runAndKeep(['list', '--json'])).toBe(0);
    expect(await runAndKeep(['show', id])).toBe(0);
    expect(await runAndKeep(['export', '--format', 'json'])).toBe(0);
    for (const printed of outputs) expect(printed).not.toMatch(raw);
    const shown = JSON.parse(outputs[2]!) as { stored: { body: { data: Record<string, string> } } };
    expect(shown.stored.body.data.websiteUrl).toContain('\u001b[2J'); // the same value, written as JSON escapes
  });
});

describe.each(testEngines())('privacy rights with npm run requests on $name', (engine) => {
  let database: Database;
  const { io, run, store, clear } = cliOn(() => database);
  const out = io.out;
  beforeEach(async () => {
    clear();
    database = await engine.open();
  });
  afterEach(async () => {
    await database.close();
  });

  it('subject prints every request of one address (its domain in any case, its local part as sent), metadata included; erase leaves nothing for subject to find', async () => {
    const invite = await store(submissionBody({ workEmail: 'Ada@Example.com' }));
    const privacy = await store({ ...privacyRequestBody(), data: { ...privacyRequestBody().data, workEmail: 'Ada@example.COM' } });
    const other = await store(submissionBody({ workEmail: 'ada@example.com' })); // another address of the mailbox: maybe someone else's

    expect(await run(['subject', '--email', 'Ada@EXAMPLE.com'])).toBe(0);
    const found = JSON.parse(out[0]!) as { email: string; requests: Array<{ id: string; body: { data: Record<string, unknown> } }> };
    expect(found.email).toBe('Ada@example.com');
    expect(found.requests.map((r) => r.id).sort()).toEqual([invite, privacy].sort());
    expect(found.requests[0]!.body.data).toHaveProperty('browserId');

    clear();
    expect(await run(['erase', '--email', 'Ada@example.com'])).toBe(0);
    expect(out[0]).toMatch(/^erased 2 requests of Ada@example\.com; kept an erasure record \(SHA-256 of the email, time, count\); 1 request from other spellings of this mailbox \(another case, /);
    clear();
    expect(await run(['subject', '--email', 'Ada@example.com'])).toBe(0);
    expect(JSON.parse(out[0]!)).toEqual({ email: 'Ada@example.com', requests: [], notifications: [], timeline: [] });
    const left = await database.db.select().from(submissions);
    expect(left.map((r) => r.id)).toEqual([other]);
    expect(JSON.stringify(left)).not.toMatch(/Ada@example\.com/); // case-sensitive: the other address is ada@

    const [record] = await database.db.select().from(erasures);
    expect(record).toMatchObject({ emailSha256: createHash('sha256').update('Ada@example.com').digest('hex'), submissions: 2 });
    // nothing of the person in the record: not the email, not its local part, not the name (matched on
    // word boundaries, since the record's random UUID may contain the letters "ada")
    expect(JSON.stringify(record)).not.toMatch(/ada@|example\.com|\bAda\b|Lovelace/i);
  });

  it('purge deletes invite requests after 18 months and privacy requests after 24, at a fixed clock', async () => {
    const now = new Date('2028-06-15T12:00:00.000Z');
    const monthsBefore = (months: number, ms = 0) => {
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - months);
      return new Date(d.getTime() + ms);
    };
    const keptInvite = await store(submissionBody({ workEmail: 'kept@example.com' }), monthsBefore(18, 1_000));
    await store(submissionBody({ workEmail: 'old@example.com' }), monthsBefore(18, -1_000));
    const keptPrivacy = await store(privacyRequestBody(), monthsBefore(24, 1_000));
    await store(privacyRequestBody(), monthsBefore(24, -1_000));
    const youngPrivacy = await store(privacyRequestBody(), monthsBefore(19));

    expect(await run(['purge'], now)).toBe(0);
    expect(out[0]).toBe('purged 1 invite request(s) older than 18 months, 1 privacy request(s) and 1 privacy record(s) older than 24 months, 0 verification link(s) of requests answered or past due');
    const left = (await database.db.select({ id: submissions.id }).from(submissions)).map((r) => r.id).sort();
    expect(left).toEqual([keptInvite, keptPrivacy, youngPrivacy].sort());
    const records = (await database.db.select({ id: privacyRecords.id }).from(privacyRecords)).map((r) => r.id).sort();
    expect(records).toEqual([keptPrivacy, youngPrivacy].sort());
  });

  it('refuses subject or erase without a valid email (exit 2), erasing nothing', async () => {
    await store(submissionBody());
    expect(await run(['erase'])).toBe(2);
    expect(await run(['erase', '--email', 'not an email'])).toBe(2);
    expect(await run(['subject', '--email', ''])).toBe(2);
    expect(await database.db.select().from(submissions)).toHaveLength(1);
    expect(await database.db.select().from(erasures)).toHaveLength(0);
  });
});

describe('the command line beside a running server on PGlite', () => {
  const startServer = serversKilledAfterEach();

  it('reads through the server while it runs, never opens its directory, and opens it itself once it stopped', async () => {
    const distDir = await writeStandInSite();
    const pgliteDir = await migratedPgliteDir();
    const server = await startServer({ SONDE_DIST_DIR: distDir, SONDE_PGLITE_DIR: pgliteDir });
    const response = await fetch(`${server.url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(submissionBody()),
    });
    const { id } = (await response.json()) as { id: string };

    // Opening the directory a second time is refused while the server holds it.
    await expect(openDatabase({ pgliteDir }, { lockWaitMs: 0 })).rejects.toThrow(/is in use by another process/);

    const cli = (...argv: string[]) =>
      promisify(execFile)(process.execPath, [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'server/cli/main.ts', ...argv], {
        env: { ...process.env, DATABASE_URL: '', SONDE_PGLITE_DIR: pgliteDir },
      });
    // the channel the command line reaches the server by: for the server's user only
    expect(statSync(pgliteDir).mode & 0o777).toBe(PGLITE_DIR_MODE);
    expect(statSync(join(pgliteDir, TEAM_SOCKET_FILE)).mode & 0o777).toBe(0o600);
    const whileRunning = JSON.parse((await cli('list', '--json')).stdout) as RequestSummary[];
    expect(whileRunning.map((r) => r.id)).toEqual([id]);
    expect((await cli('done', id, '--by', 'grace')).stdout).toContain(`request ${id} waitlisted by grace`);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200); // the server kept serving
    // A mistyped command may be a person's address: the server's log names known commands only.
    await expect(cli('ada@example.com')).rejects.toMatchObject({ code: 2 });
    await expect(cli('--email=grace@example.com', 'erase')).rejects.toMatchObject({ code: 2 });
    await until(async () => server.logs.filter((line) => line.msg === 'team command').length >= 4);
    expect(server.logs.filter((line) => line.msg === 'team command').map((line) => line.teamCommand)).toEqual(['list', 'done', 'unknown', 'unknown']);
    expect(JSON.stringify(server.logs)).not.toMatch(/ada@|grace@/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const afterStop = JSON.parse((await cli('list', '--json')).stdout) as RequestSummary[];
    expect(afterStop).toEqual([expect.objectContaining({ id, status: 'done', handledBy: 'grace' })]);
  }, 60_000);

  it('keeps PGlite\'s directory to its own user: creates it 0700, and tightens an existing 0755 one', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'sonde-pglite-'));
    const fresh = join(parent, 'fresh');
    const old = join(parent, 'old');
    await mkdir(old);
    await chmod(old, 0o755); // as `mkdir` made it under the usual umask, before
    for (const dir of [fresh, old]) {
      // the migrated copy, not an initdb: what this checks is the directory's mode
      const database = await openDatabase({ pgliteDir: dir }, { pgliteTemplate: await migratedPgliteTarball() });
      await database.close();
      expect((statSync(dir).mode & 0o777).toString(8), dir).toBe('700');
    }
  }, 60_000);

  it('refuses a PGlite directory that holds no database, naming it, and creates nothing', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'sonde-pglite-'));
    for (const dir of [join(parent, 'mistyped'), parent]) {
      const failed = await promisify(execFile)(process.execPath, [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'server/cli/main.ts', 'list'], {
        env: { ...process.env, DATABASE_URL: '', SONDE_PGLITE_DIR: dir },
      }).then(
        () => undefined,
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
      expect(failed?.code, dir).toBe(1);
      expect(failed?.stderr.trim(), dir).toBe(`no database in ${dir} (SONDE_PGLITE_DIR): check the path, or start the server once to create it`);
      expect(failed?.stdout, dir).not.toContain('no requests');
    }
    expect(existsSync(join(parent, 'mistyped'))).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
  }, 30_000);
});

describe('the command line as a process', () => {
  it('writes its whole output into a pipe before it exits: an export of more than 64 KiB arrives whole', async () => {
    const pgliteDir = await migratedPgliteDir();
    const database = await openDatabase({ pgliteDir });
    for (let i = 0; i < 300; i += 1) await storeSubmission(database.db, submissionBody({ workEmail: `ada${i}@example.com` }));
    await database.close();
    // A reader slower than the command, as `| less` or `| ssh …` can be: what the process had not yet
    // written into the pipe when it exited would be lost.
    const child = spawn(process.execPath, [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'server/cli/main.ts', 'export', '--format', 'json'], {
      env: { ...process.env, DATABASE_URL: '', SONDE_PGLITE_DIR: pgliteDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    const reader = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        setTimeout(done, 20);
      },
    });
    child.stdout.pipe(reader);
    // The process's exit code, and every byte it wrote as the reader takes it: the child's pipe closes
    // while the slow reader still holds chunks it has not yet been handed.
    const [code] = await Promise.all([new Promise((resolve) => child.once('close', resolve)), finished(reader)]);
    const stdout = Buffer.concat(chunks).toString('utf8');
    expect(code).toBe(0);
    expect(Buffer.byteLength(stdout)).toBeGreaterThan(4 * 65_536); // far past a pipe's buffer
    expect(JSON.parse(stdout)).toHaveLength(300);
  }, 60_000);
});

