// @vitest-environment node
// The team's command line while visitors use the site and several team members run commands at once:
// every command, run as `npm run requests` runs it (a process of its own), against a real server process
// on PGlite and on PostgreSQL, must print the right answer, or refuse with its one-line reason and a
// non-zero exit: never another session's data with exit 0.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import { VERIFICATION_LOOKUP_PATH } from '#shared/verification';
import type { Database } from '../../server/db/database.ts';
import { cliProcess, type CliRun } from '../support/cli.ts';
import { migratedPgliteDir, testEngines } from '../support/database.ts';
import { spawnServer, type ServerProcess } from '../support/process.ts';
import { writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';

/** How many command processes run at once (each is a Node process; the machine has 2 cores). */
const COMMANDS_AT_ONCE = 8;

/** Runs `jobs` with at most `limit` of them at a time. */
async function pool<T>(jobs: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]!();
      }
    }),
  );
  return results;
}

const privacyOf = (email: string): SubmissionBody => {
  const body = privacyRequestBody();
  return { ...body, data: { ...body.data, workEmail: email } };
};

interface Shown {
  id: string;
  kind: string;
  email?: string;
  erased?: boolean;
  status?: string;
  outcome?: string;
  history?: Array<{ event: string }>;
}

const engines = testEngines().map((engine) => ({ name: engine.name, engine }));

describe.each(engines)('team commands at once beside a running server on $name, with visitors sending requests', ({ name, engine }) => {
  let server: ServerProcess;
  let database: Database | undefined;
  let env: Record<string, string>;
  beforeAll(async () => {
    const distDir = await writeStandInSite();
    if (name === 'PGlite') {
      env = { DATABASE_URL: '', SONDE_PGLITE_DIR: await migratedPgliteDir() };
    } else {
      database = await engine.open(); // a database of this test's own, dropped at the end
      env = { DATABASE_URL: (engine.location() as { url: string }).url };
    }
    server = await spawnServer({ SONDE_DIST_DIR: distDir, SONDE_RATE_LIMIT_PER_MINUTE: '1000000', SONDE_TRUST_PROXY: 'true', ...env });
  }, 60_000);
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database?.close();
  });

  it('every command answers right or refuses with a non-zero exit; none prints another session\'s data with exit 0', async () => {
    const post = async (path: string, body: unknown, client: string) => {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { id?: string } };
    };
    const store = async (body: SubmissionBody) => {
      const { status, body: answer } = await post(SUBMISSIONS_PATH, body, '198.51.100.1');
      expect(status).toBe(201);
      return answer.id!;
    };
    const stable = await Promise.all([1, 2].map(async (i) => ({ email: `stable-${i}@example.com`, id: await store(privacyOf(`stable-${i}@example.com`)) })));
    const raced = await Promise.all([1, 2].map(async (i) => store(privacyOf(`raced-${i}@example.com`))));
    const erased = await Promise.all([1, 2].map(async (i) => ({ email: `erased-${i}@example.com`, id: await store(privacyOf(`erased-${i}@example.com`)) })));
    const invites = await Promise.all([1, 2].map(async (i) => store(submissionBody({ workEmail: `invite-${i}@example.com` }))));

    // Visitors meanwhile: invite requests, and look-ups of verification links (each from an address of
    // its own, so that the per-address limit of look-ups never answers instead of the database).
    let trafficOn = true;
    const traffic = { submissions: 0, lookUps: 0, unexpected: [] as string[] };
    const visitors = Array.from({ length: 2 }, async (_, v) => {
      for (let n = 0; trafficOn; n++) {
        const client = `203.0.113.${(v * 100 + n) % 250}`;
        const [submitted, looked] = await Promise.all([
          post(SUBMISSIONS_PATH, submissionBody({ workEmail: `visitor-${v}-${n}@example.com` }), client),
          post(VERIFICATION_LOOKUP_PATH, { token: randomBytes(32).toString('base64url') }, `${client.replace('203.0.113', '192.0.2')}`),
        ]);
        traffic.submissions++;
        traffic.lookUps++;
        if (submitted.status !== 201) traffic.unexpected.push(`submission ${submitted.status}`);
        if (looked.status !== 404) traffic.unexpected.push(`look-up ${looked.status}`);
      }
    });

    const run = (...argv: string[]) => cliProcess(argv, env);
    type Check = (result: CliRun) => string | undefined; // what is wrong, or undefined
    const json = <T>(result: CliRun) => JSON.parse(result.stdout) as T;
    const ok = (check: (result: CliRun) => string | undefined): Check => (result) =>
      result.code !== 0 ? `exit ${result.code}: ${result.stderr.trim()}` : check(result);
    const jobs: Array<{ argv: string[]; check: Check }> = [];
    for (const { email, id } of stable) {
      for (let k = 0; k < 2; k++) {
        jobs.push({
          argv: ['show', id],
          check: ok((r) => {
            const shown = json<Shown>(r);
            return shown.id === id && shown.email === email && !shown.erased && shown.status === 'open' ? undefined : `showed ${r.stdout}`;
          }),
        });
        jobs.push({
          argv: ['subject', '--email', email],
          check: ok((r) => {
            const ids = json<{ requests: Array<{ id: string }> }>(r).requests.map((request) => request.id);
            return ids.length === 1 && ids[0] === id ? undefined : `found ${JSON.stringify(ids)}`;
          }),
        });
      }
    }
    for (let k = 0; k < 2; k++) {
      jobs.push({
        argv: ['list', '--json'],
        check: ok((r) => {
          const listed = new Map(json<Array<{ id: string; kind: string }>>(r).map((request) => [request.id, request.kind]));
          const missing = [...stable.map((s) => s.id), ...invites].filter((id) => !listed.has(id));
          const wrongKind = stable.filter((s) => listed.get(s.id) !== 'privacy').length + invites.filter((id) => listed.get(id) !== 'invite').length;
          return missing.length === 0 && wrongKind === 0 ? undefined : `missing ${missing.length}, wrong kind ${wrongKind}`;
        }),
      });
    }
    const respondOf = new Map<string, CliRun>();
    const extendOf = new Map<string, CliRun>();
    for (const id of raced) {
      jobs.push({
        argv: ['respond', id, '--outcome', 'denied', '--reason', 'We could not confirm the request'],
        check: (r) => {
          respondOf.set(id, r);
          return r.code === 0 && r.stdout.startsWith(`request ${id} answered (denied)`) ? undefined : `exit ${r.code}: ${r.stdout}${r.stderr}`;
        },
      });
      jobs.push({
        argv: ['extend', id, '--reason', 'Our backups take two weeks to search'],
        check: (r) => {
          extendOf.set(id, r);
          if (r.code === 0 && r.stdout.startsWith(`request ${id} now due `)) return undefined;
          // answered first: the one refusal that is right
          if (r.code === 1 && /^request \S+ was (already answered|extended or answered meanwhile)/.test(r.stderr)) return undefined;
          return `exit ${r.code}: ${r.stdout}${r.stderr}`;
        },
      });
    }
    for (const { email, id } of erased) {
      jobs.push({
        argv: ['erase', '--email', email, '--force'],
        check: ok((r) => (r.stdout.startsWith(`erased 1 request of ${email};`) ? undefined : `printed ${r.stdout}`)),
      });
      jobs.push({
        argv: ['show', id],
        check: ok((r) => {
          const shown = json<Shown>(r);
          return shown.id === id && (shown.erased === true || shown.email === email) ? undefined : `showed ${r.stdout}`;
        }),
      });
    }
    for (const id of invites) {
      jobs.push({ argv: ['done', id, '--by', 'kim'], check: ok((r) => (r.stdout.trim() === `request ${id} waitlisted by kim; the mail goes out with the server's outbox` ? undefined : `printed ${r.stdout}`)) });
      jobs.push({
        argv: ['show', id],
        check: ok((r) => {
          const shown = json<Shown>(r);
          return shown.id === id && shown.kind === 'invite' && shown.email === `invite-${invites.indexOf(id) + 1}@example.com` ? undefined : `showed ${r.stdout}`;
        }),
      });
    }
    // mixed, so that every kind of command overlaps with the others
    const order = jobs.map((job, i) => ({ job, key: (i * 7919) % jobs.length })).sort((a, b) => a.key - b.key).map((x) => x.job);
    const results = await pool(order.map((job) => () => run(...job.argv)), COMMANDS_AT_ONCE);
    trafficOn = false;
    await Promise.all(visitors);

    const wrong = order.flatMap((job, i) => {
      const problem = job.check(results[i]!);
      return problem ? [`${job.argv.join(' ')} → ${problem}`] : [];
    });

    // afterwards, one at a time: what the commands did is what they said they did
    for (const id of raced) {
      const shown = json<Shown>(await run('show', id));
      const extended = shown.history?.some((event) => event.event === 'extended') ?? false;
      if (shown.outcome !== 'denied') wrong.push(`show ${id} after respond → outcome ${shown.outcome}`);
      if (extended !== (extendOf.get(id)?.code === 0)) wrong.push(`show ${id} after extend (exit ${extendOf.get(id)?.code}) → extended ${extended}`);
    }
    for (const { email, id } of erased) {
      if (!json<Shown>(await run('show', id)).erased) wrong.push(`show ${id} after erase → not erased`);
      if (json<{ requests: unknown[] }>(await run('subject', '--email', email)).requests.length !== 0) wrong.push(`subject ${email} after erase → requests left`);
    }

    expect({ wrong, commands: jobs.length, unexpectedTraffic: traffic.unexpected }).toEqual({ wrong: [], commands: jobs.length, unexpectedTraffic: [] });
    expect(traffic.submissions).toBeGreaterThan(0);
    expect(traffic.lookUps).toBeGreaterThan(0);
  }, 300_000);
});
