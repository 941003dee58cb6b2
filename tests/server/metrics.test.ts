// @vitest-environment node
// The metrics for Prometheus over real HTTP: the server's own listener (SONDE_METRICS_LISTEN), what each
// part counts, the gauges read from the database at each scrape, and the alert rules of docs/alerts.yml
// against a real scrape.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { parse } from 'yaml';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, daysLeftUntil, dueBandEnds, dueBandOf, type DueBand } from '#shared/dueBand';
import { SUBMISSIONS_PATH } from '#shared/submission';
import { readConfig, type ServerConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { migratedPgliteDir, testEngines } from '../support/database.ts';
import { freePort, until } from '../support/mailServer.ts';
import { serversKilledAfterEach } from '../support/process.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { enrolledClient, teamClient } from '../support/teamClient.ts';

/** One sample of the text exposition format: `name{label="value",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, name, labels, value] = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      return { name: name!, labels: Object.fromEntries([...(labels ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k!, v!])), value: Number(value) };
    });
}

/** The samples of `name` whose labels include `labels`: their values. */
function valuesOf(text: string, name: string, labels: Record<string, string> = {}): number[] {
  return samplesOf(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .map((s) => s.value);
}

describe('SONDE_METRICS_LISTEN', () => {
  it('is off by default, and takes host:port (an IPv6 address in brackets)', () => {
    expect(readConfig({}).metricsListen).toBeUndefined();
    expect(readConfig({ SONDE_METRICS_LISTEN: '' }).metricsListen).toBeUndefined();
    expect(readConfig({ SONDE_METRICS_LISTEN: '127.0.0.1:9464' }).metricsListen).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(readConfig({ SONDE_METRICS_LISTEN: '[::1]:9464' }).metricsListen).toEqual({ host: '::1', port: 9464 });
    expect(readConfig({ SONDE_METRICS_LISTEN: 'metrics.internal:65535' }).metricsListen).toEqual({ host: 'metrics.internal', port: 65535 });
  });

  it('stops the server with a message naming the variable for anything else, and for the public port', () => {
    for (const value of ['9464', '127.0.0.1', ':9464', '127.0.0.1:', '127.0.0.1:65536', '127.0.0.1:94a', 'http://127.0.0.1:9464', '::1:9464', '127.0.0.1:9464/metrics']) {
      expect(() => readConfig({ SONDE_METRICS_LISTEN: value }), value).toThrow(`SONDE_METRICS_LISTEN must be host:port, like 127.0.0.1:9464 or [::1]:9464, not "${value}"`);
    }
    expect(() => readConfig({ SONDE_METRICS_LISTEN: '127.0.0.1:4173' })).toThrow('SONDE_METRICS_LISTEN must not be the public port (PORT=4173)');
    expect(() => readConfig({ PORT: '8080', SONDE_METRICS_LISTEN: '0.0.0.0:8080' })).toThrow('must not be the public port (PORT=8080)');
  });
});

describe('the production server (the bundle, run by node)', () => {
  const spawn = serversKilledAfterEach();

  it('serves the metrics on SONDE_METRICS_LISTEN, and stops at start with a line naming the variable for a bad value', async () => {
    const distDir = await writeStandInSite();
    const port = await freePort();
    const server = await spawn({ SONDE_DIST_DIR: distDir, SONDE_PGLITE_DIR: await migratedPgliteDir(), SONDE_METRICS_LISTEN: `127.0.0.1:${port}` });
    expect(server.logs.find((line) => line.msg === 'listening')).toMatchObject({ metrics: `http://127.0.0.1:${port}/metrics` });
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(valuesOf(text, 'sonde_database_up')).toEqual([1]);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const refused = await spawn({ SONDE_DIST_DIR: distDir, SONDE_METRICS_LISTEN: 'localhost' }).then(() => 'started', (error: Error) => error.message);
    expect(refused).toMatch(/^server exited \(1\) before listening: .*"msg":"could not start"/s);
    expect(refused).toContain('SONDE_METRICS_LISTEN must be host:port');
  }, 60_000);
});

describe('due bands', () => {
  it('counts a band as the range of due dates the console colours so (dueBandEnds agrees with dueBandOf at each edge)', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    const ends = dueBandEnds(now);
    const asRange = (due: Date): DueBand => (due <= ends.under_5_days ? 'under_5_days' : due <= ends.under_10_days ? 'under_10_days' : 'later');
    for (const offset of [1, DAY_MS, 4 * DAY_MS - 1, 4 * DAY_MS, 4 * DAY_MS + 1, 5 * DAY_MS, 9 * DAY_MS - 1, 9 * DAY_MS, 9 * DAY_MS + 1, 10 * DAY_MS, 40 * DAY_MS]) {
      const due = new Date(now.getTime() + offset);
      expect(asRange(due), `${offset} ms`).toBe(dueBandOf(daysLeftUntil(due, now)));
    }
    expect(asRange(new Date(now.getTime() + 4 * DAY_MS))).toBe('under_5_days');
    expect(asRange(new Date(now.getTime() + 4 * DAY_MS + 1))).toBe('under_10_days');
  });
});

describe.each(testEngines())('metrics on $name', (engine) => {
  let distDir: string;
  let database: Database | undefined;
  const running: RunningServer[] = [];
  beforeAll(async () => {
    distDir = await writeStandInSite();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop()));
    await database?.close();
    database = undefined;
  });

  async function start(overrides: Partial<ServerConfig> = {}, logger: Logger = createLogger('silent')) {
    database = await engine.open();
    const server = await startTestServer(testConfig(distDir, { metricsListen: { host: '127.0.0.1', port: 0 }, ...overrides }), logger, { database });
    running.push(server);
    return server;
  }
  const scrape = async (server: RunningServer) => {
    const answer = await fetch(`${server.metricsUrl}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return answer.text();
  };
  const post = (server: RunningServer, body: unknown, key?: string) =>
    fetch(`${server.url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });

  it('after a stored, a refused and a replayed submission, shows each outcome once, and the HTTP answers by route', async () => {
    const server = await start();
    const body = submissionBody();
    const key = randomUUID();
    expect((await post(server, body, key)).status).toBe(201);
    const replay = await post(server, body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await post(server, { event: 'invite_request', data: {} })).status).toBe(400);

    const text = await scrape(server);
    expect(valuesOf(text, 'sonde_submissions_total', { kind: 'invite', outcome: 'stored', reason: '' })).toEqual([1]);
    expect(valuesOf(text, 'sonde_submissions_total', { kind: 'invite', outcome: 'replayed', reason: '' })).toEqual([1]);
    expect(valuesOf(text, 'sonde_submissions_total', { kind: 'unknown', outcome: 'refused', reason: 'invalid' })).toEqual([1]);
    expect(valuesOf(text, 'sonde_submissions_total').reduce((a, b) => a + b, 0)).toBe(3);
    expect(valuesOf(text, 'sonde_http_requests_total', { method: 'POST', route: SUBMISSIONS_PATH, status: '201' })).toEqual([2]);
    expect(valuesOf(text, 'sonde_http_requests_total', { method: 'POST', route: SUBMISSIONS_PATH, status: '400' })).toEqual([1]);
    expect(valuesOf(text, 'sonde_http_request_duration_seconds_count', { method: 'POST', route: SUBMISSIONS_PATH, status: '201' })).toEqual([2]);
    expect(valuesOf(text, 'sonde_invite_requests', { state: 'received' })).toEqual([1]);
    expect(valuesOf(text, 'sonde_database_up')).toEqual([1]);
    // Node's default metrics
    expect(valuesOf(text, 'process_resident_memory_bytes')[0]).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('labels a request by its route pattern, never by the path asked for', async () => {
    const server = await start();
    const id = randomUUID();
    expect((await fetch(`${server.url}/api/team/requests/${id}`)).status).toBeGreaterThanOrEqual(400);
    expect((await fetch(`${server.url}/no-such-page-${id}`)).status).toBe(404);
    const text = await scrape(server);
    expect(text).not.toContain(id);
    expect(valuesOf(text, 'sonde_http_requests_total', { method: 'GET', status: '404' })).toHaveLength(1);
  });

  it('counts submissions refused past the rate limit by their reason', async () => {
    const server = await start({ rateLimitPerMinute: 1 });
    expect((await post(server, submissionBody())).status).toBe(201);
    expect((await post(server, submissionBody())).status).toBe(429);
    const text = await scrape(server);
    expect(valuesOf(text, 'sonde_submissions_total', { kind: 'invite', outcome: 'refused', reason: 'rate_limited' })).toEqual([1]);
  });

  it('answers 404 to /metrics on the public port; the metrics listener serves /metrics alone, GET and HEAD only', async () => {
    const server = await start();
    expect(new URL(server.metricsUrl!).port).not.toBe(new URL(server.url).port);
    const publicAnswer = await fetch(`${server.url}/metrics`);
    expect(publicAnswer.status).toBe(404);
    expect(await publicAnswer.text()).not.toContain('sonde_');
    expect((await fetch(`${server.metricsUrl}/`)).status).toBe(404);
    expect((await fetch(`${server.metricsUrl}/api/health`)).status).toBe(404);
    const posted = await fetch(`${server.metricsUrl}/metrics`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${server.metricsUrl}/metrics`, { method: 'HEAD' })).status).toBe(200);
  });

  it('opens no listener and counts nothing when SONDE_METRICS_LISTEN is unset (the default)', async () => {
    const listeners = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;
    await until(() => listeners() === 0); // the servers of the tests before, closed
    const lines: string[] = [];
    const capture = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const server = await start({ metricsListen: readConfig({}).metricsListen }, createLogger('info', capture));
    expect(server.metricsUrl).toBeUndefined();
    expect(listeners()).toBe(1); // the public port alone
    expect(JSON.parse(lines.find((line) => line.includes('"listening"'))!)).toMatchObject({ metrics: 'off' });
    const withMetrics = await start();
    expect(listeners()).toBe(3); // and, with metrics, its listener beside its public port
    expect(withMetrics.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the age of the oldest pending delivery grows while SMTP is down, and each failed attempt is counted', async () => {
    const closedPort = await freePort(); // nothing listens there: every connection is refused
    const server = await start({ mail: { ...testConfig(distDir).mail, smtpUrl: `smtp://127.0.0.1:${closedPort}` } });
    expect((await post(server, submissionBody())).status).toBe(201);
    const attempted = async () => {
      const text = await scrape(server);
      return valuesOf(text, 'sonde_delivery_attempts_total', { channel: 'mail', outcome: 'retry' })[0] === 1 ? text : undefined;
    };
    let first: string | undefined;
    await until(async () => (first = await attempted()) !== undefined);
    expect(valuesOf(first!, 'sonde_deliveries_pending', { channel: 'mail', state: 'retrying' })).toEqual([1]);
    const [ageBefore] = valuesOf(first!, 'sonde_deliveries_oldest_pending_age_seconds', { channel: 'mail' });
    expect(ageBefore).toBeGreaterThanOrEqual(0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [ageAfter] = valuesOf(await scrape(server), 'sonde_deliveries_oldest_pending_age_seconds', { channel: 'mail' });
    expect(ageAfter! - ageBefore!).toBeGreaterThanOrEqual(1.4);
    // as it would read after 20 minutes of failures: past the alert's 15 minutes (docs/alerts.yml)
    await database!.db.execute(sql`update deliveries set created_at = created_at - interval '20 minutes'`);
    const [late] = valuesOf(await scrape(server), 'sonde_deliveries_oldest_pending_age_seconds', { channel: 'mail' });
    expect(late).toBeGreaterThan(15 * 60);
    expect(late).toBeLessThan(21 * 60 + 30);
  });

  it('leaves a delivery waiting for its later slot out of the age, and shows none once nothing waits', async () => {
    const server = await start();
    expect((await post(server, submissionBody())).status).toBe(201);
    await until(async () => valuesOf(await scrape(server), 'sonde_delivery_attempts_total', { channel: 'mail', outcome: 'delivered' })[0] === 1);
    const idle = await scrape(server);
    expect(valuesOf(idle, 'sonde_deliveries_pending')).toEqual([]);
    expect(valuesOf(idle, 'sonde_deliveries_oldest_pending_age_seconds')).toEqual([]);
    // a confirmation written for its mailbox's next slot, 20 hours on (accept_submission.sql): not late
    await database!.db.execute(sql`update deliveries set delivered_at = null, next_attempt_at = now() + interval '20 hours', created_at = now() - interval '1 hour', attempts = 0`);
    const scheduled = await scrape(server);
    expect(valuesOf(scheduled, 'sonde_deliveries_pending', { channel: 'mail', state: 'scheduled' })).toEqual([1]);
    expect(valuesOf(scheduled, 'sonde_deliveries_oldest_pending_age_seconds')).toEqual([]);
  });

  it('counts open privacy requests by due band: 41 days old is due in under 5 days, 46 days old is overdue', async () => {
    const server = await start();
    expect((await post(server, privacyRequestBody())).status).toBe(201);
    const bands = async () => Object.fromEntries(samplesOf(await scrape(server)).filter((s) => s.name === 'sonde_privacy_requests_open').map((s) => [s.labels.due, s.value]));
    expect(await bands()).toEqual({ overdue: 0, under_5_days: 0, under_10_days: 0, later: 1 });
    const receivedDaysAgo = (days: number) =>
      database!.db.execute(sql`
        with moved as (update submissions set received_at = now() - make_interval(days => ${days}), due_at = now() - make_interval(days => ${days}) + interval '45 days' returning id, due_at)
        update privacy_records r set due_at = moved.due_at from moved where r.id = moved.id`);
    await receivedDaysAgo(41);
    expect(await bands()).toEqual({ overdue: 0, under_5_days: 1, under_10_days: 0, later: 0 });
    await receivedDaysAgo(37);
    expect(await bands()).toEqual({ overdue: 0, under_5_days: 0, under_10_days: 1, later: 0 });
    await receivedDaysAgo(46);
    expect(await bands()).toEqual({ overdue: 1, under_5_days: 0, under_10_days: 0, later: 0 });
  });

  it('counts a failed team sign-in, and sign-ins by enrollment and by passkey', async () => {
    const server = await start();
    const stranger = teamClient(server);
    // a passkey made for this RP ID but never registered here
    stranger.authenticator.create({ rp: { id: 'localhost', name: 'Sonde team' }, user: { id: 'AAAA', name: 'x', displayName: 'x' }, challenge: 'AAAA', pubKeyCredParams: [] });
    expect((await stranger.signIn()).status).toBe(401);
    const text = await scrape(server);
    expect(valuesOf(text, 'sonde_team_sign_in_failures_total', { reason: 'unknown_passkey' })).toEqual([1]);
    expect(valuesOf(text, 'sonde_team_sign_ins_total')).toEqual([]);
    const member = await enrolledClient(server, database!.db);
    expect((await member.signIn()).status).toBe(200);
    const after = await scrape(server);
    expect(valuesOf(after, 'sonde_team_sign_ins_total', { method: 'enrollment' })).toEqual([1]);
    expect(valuesOf(after, 'sonde_team_sign_ins_total', { method: 'passkey' })).toEqual([1]);
    expect(valuesOf(after, 'sonde_team_sign_in_failures_total')).toEqual([1]);
  });

  it('still answers when the database cannot be read: database_up 0, its gauges left out, the counters kept, a log line without personal data', async () => {
    const lines: string[] = [];
    const capture = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const server = await start({}, createLogger('info', capture));
    const body = submissionBody();
    expect((await post(server, body)).status).toBe(201);
    await database!.close();
    const text = await scrape(server);
    expect(valuesOf(text, 'sonde_database_up')).toEqual([0]);
    expect(valuesOf(text, 'sonde_invite_requests')).toEqual([]);
    expect(valuesOf(text, 'sonde_privacy_requests_open')).toEqual([]);
    expect(valuesOf(text, 'sonde_submissions_total', { outcome: 'stored' })).toEqual([1]);
    const warned = lines.filter((line) => line.includes('metrics: the database gauges could not be read'));
    expect(warned).toHaveLength(1);
    expect(lines.join('')).not.toContain(body.data.workEmail);
  });

  it('every metric the alert rules of docs/alerts.yml name is in a real scrape', async () => {
    const file = await readFile(new URL('../../docs/alerts.yml', import.meta.url), 'utf8');
    // docs/operations.md shows the rules as they are in the file
    expect(await readFile(new URL('../../docs/operations.md', import.meta.url), 'utf8')).toContain(file);
    const rules = parse(file) as { groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; for?: string; labels: Record<string, string>; annotations: Record<string, string> }> }> };
    const alerts = rules.groups.flatMap((group) => group.rules);
    expect(alerts.map((rule) => rule.alert)).toEqual(['SondePrivacyRequestOverdue', 'SondeDeliveryWaiting', 'SondeDeliveriesGivenUp', 'SondeUnhealthy']);
    const server = await start();
    const text = await scrape(server);
    const exposed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name));
    for (const rule of alerts) {
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      expect(rule.labels.severity, rule.alert).toMatch(/^(critical|warning)$/);
      const named = [...rule.expr.matchAll(/\bsonde_[a-z0-9_]+/g)].map(([name]) => name.replace(/_(bucket|count|sum)$/, ''));
      expect(named.length, rule.alert).toBeGreaterThan(0);
      for (const name of named) expect(exposed, `${rule.alert}: ${name}`).toContain(name);
    }
    // `up` is Prometheus' own, for each target it scrapes
    expect(alerts.find((rule) => rule.alert === 'SondeUnhealthy')!.expr).toMatch(/\bup\{job="sonde"\} == 0/);
  });
});
