// The server's metrics for Prometheus (prom-client), served on a listener of their own
// (`SONDE_METRICS_LISTEN`), never on the public port. Names follow Prometheus' conventions: the `sonde_`
// prefix, the unit in the name (`_seconds`), `_total` for a counter. docs/operations.md lists them.
import { createServer } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SubmissionKind } from '#shared/submission';
import { REVIEW_STATES } from '#machines/inviteReviewMachine';
import type { MetricsListen } from './config.ts';
import type { Db } from './db/database.ts';
import { withDeadline } from './db/deadline.ts';
import { readDatabaseGauges, type DatabaseGauges } from './db/metrics.ts';
import type { OutboxChannel } from './db/schema.ts';
import { HEALTH_CHECK_TIMEOUT_MS } from './limits.ts';
import type { Logger } from './logger.ts';

/**
 * Why a submission was refused, as the route tells its answers apart (server/http/submissions.ts):
 * `origin` 403, `content_type` 415, `invalid` 400 (the `Idempotency-Key`'s shape, not JSON, not whole, the
 * schema, a value the database cannot store), `too_large` 413, `too_many_under_way` 429 (from one address),
 * `rate_limited` 429 (stored per minute), `conflict` 422 (a key used with another body), `busy` 503 (too many
 * being stored), `database_slow` 503, `database_unavailable` 503, `error` 500.
 */
export type SubmissionRefusal =
  | 'origin'
  | 'content_type'
  | 'invalid'
  | 'too_large'
  | 'too_many_under_way'
  | 'rate_limited'
  | 'conflict'
  | 'busy'
  | 'database_slow'
  | 'database_unavailable'
  | 'error';

/**
 * A submission's labels (`POST /api/submissions`, spec §7.1): its kind (`unknown` when refused before its
 * body was read as one), how it ended (stored, a replay of a stored one, or refused) and, refused, why.
 */
export type SubmissionLabels =
  | { kind: SubmissionKind; outcome: 'stored' | 'replayed' }
  | { kind: SubmissionKind | 'unknown'; outcome: 'refused'; reason: SubmissionRefusal };

/** How one attempt at a delivery ended (server/outbox/sender.ts): delivered, to be tried again, or given up (refused for good, or 3 days of failures). */
export type DeliveryOutcome = 'delivered' | 'retry' | 'given_up';

/** Why a team sign-in failed (server/http/team/passkeys.ts): a passkey not registered here, a user handle not the passkey's, or a response that does not verify. */
export type SignInFailure = 'unknown_passkey' | 'user_handle' | 'response_refused';

/** What the server's parts count: each part is handed these and calls them, when the metrics are on. */
export interface MetricsRecorder {
  /** One HTTP answer: `route` the pattern the app matched (`/api/team/requests/:id`), never the path asked for; `seconds` until the answer was made. */
  httpRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  submission(labels: SubmissionLabels): void;
  delivery(channel: OutboxChannel, outcome: DeliveryOutcome): void;
  /** A team member signed in: with a passkey, or by enrolling one. */
  teamSignIn(method: 'passkey' | 'enrollment'): void;
  teamSignInFailed(reason: SignInFailure): void;
}

/** The server's metrics: what its parts record, and the scrape. */
export interface ServerMetrics extends MetricsRecorder {
  /** The text exposition format (version 0.0.4) of every metric, the database's gauges read now. */
  scrape(): Promise<string>;
  /** the scrape's `Content-Type` */
  contentType: string;
}

/**
 * The metrics of one server process, in a registry of its own (two servers in one process, as the tests
 * run them, count apart): its counters and histograms, Node's default metrics (`collectDefaultMetrics`:
 * CPU, memory, the event loop's lag, garbage collection, handles), and gauges read from the database at
 * each scrape (prom-client's `collect()`), all of them from one read ({@link readDatabaseGauges}) shared by
 * the scrape. When that read fails or takes longer than {@link HEALTH_CHECK_TIMEOUT_MS} (the health
 * check's time), the scrape still answers: `sonde_database_up` is 0, the other database gauges are left
 * out, and the failure is logged at warn (its error through the logger's serializer: no statement, no
 * parameters, nothing of a requester).
 * @param now - the clock the privacy requests' due dates are counted against (tests fix it)
 */
export function createMetrics(options: { db: Db; logger: Logger; now?: () => Date }): ServerMetrics {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequests = new Counter({
    name: 'sonde_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'sonde_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const submissions = new Counter({
    name: 'sonde_submissions_total',
    help: 'Submissions (POST /api/submissions) by kind and outcome (stored, replayed, refused) and, refused, the reason',
    labelNames: ['kind', 'outcome', 'reason'] as const,
    registers,
  });
  const deliveryAttempts = new Counter({
    name: 'sonde_delivery_attempts_total',
    help: "Deliveries' attempts by channel and outcome: delivered, retry (failed, tried again later), given_up (refused for good, or failing for 3 days)",
    labelNames: ['channel', 'outcome'] as const,
    registers,
  });
  const signIns = new Counter({ name: 'sonde_team_sign_ins_total', help: 'Team console sign-ins, by method (passkey, enrollment)', labelNames: ['method'] as const, registers });
  const signInFailures = new Counter({ name: 'sonde_team_sign_in_failures_total', help: 'Team console sign-ins refused (401), by reason', labelNames: ['reason'] as const, registers });

  // One read of the database per scrape: every gauge's collect() is called in the same turn
  // (Registry.metrics() asks them all at once), and the first starts the read the others share.
  let reading: Promise<DatabaseGauges | undefined> | undefined;
  const read = () =>
    (reading ??= withDeadline(readDatabaseGauges(db, now()), HEALTH_CHECK_TIMEOUT_MS)
      .catch((err: unknown) => {
        logger.warn({ err }, 'metrics: the database gauges could not be read');
        return undefined;
      })
      .finally(() => (reading = undefined)));

  const databaseUp = new Gauge({
    name: 'sonde_database_up',
    help: "1 when this scrape's read of the database answered within the health check's time, else 0",
    registers,
    async collect() {
      databaseUp.set((await read()) ? 1 : 0);
    },
  });
  const requests = new Gauge({
    name: 'sonde_invite_requests',
    help: 'Invite requests stored, by review state (from queue_counts)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const gauges = await read();
      requests.reset();
      if (!gauges) return;
      for (const state of REVIEW_STATES) requests.set({ state }, 0);
      for (const row of gauges.requests) if (row.kind === 'invite') requests.set({ state: row.state }, row.n);
    },
  });
  const openPrivacy = new Gauge({
    name: 'sonde_privacy_requests_open',
    help: 'Privacy requests not answered yet, by due band: overdue (past the due date), under_5_days, under_10_days, later (the console\'s colours)',
    labelNames: ['due'] as const,
    registers,
    async collect() {
      const gauges = await read();
      openPrivacy.reset();
      for (const [due, n] of Object.entries(gauges?.openPrivacy ?? {})) openPrivacy.set({ due }, n);
    },
  });
  const pending = new Gauge({
    name: 'sonde_deliveries_pending',
    help: 'Deliveries neither delivered nor given up, by channel and state: queued (due), scheduled (due later), sending, retrying',
    labelNames: ['channel', 'state'] as const,
    registers,
    async collect() {
      const gauges = await read();
      pending.reset();
      for (const row of gauges?.pending ?? []) pending.set({ channel: row.channel, state: row.state }, row.n);
    },
  });
  const oldest = new Gauge({
    name: 'sonde_deliveries_oldest_pending_age_seconds',
    help: 'Seconds the oldest delivery neither delivered nor given up has waited since it was first due, by channel; absent when none waits',
    labelNames: ['channel'] as const,
    registers,
    async collect() {
      const gauges = await read();
      oldest.reset();
      const ages = new Map<OutboxChannel, number>();
      for (const row of gauges?.pending ?? []) {
        if (row.oldestSeconds !== null) ages.set(row.channel, Math.max(ages.get(row.channel) ?? 0, row.oldestSeconds));
      }
      for (const [channel, seconds] of ages) oldest.set({ channel }, seconds);
    },
  });

  return {
    httpRequest: (labels, seconds) => {
      const named = { method: labels.method, route: labels.route, status: String(labels.status) };
      httpRequests.inc(named);
      httpDuration.observe(named, seconds);
    },
    submission: (labels) => submissions.inc({ kind: labels.kind, outcome: labels.outcome, reason: labels.outcome === 'refused' ? labels.reason : '' }),
    delivery: (channel, outcome) => deliveryAttempts.inc({ channel, outcome }),
    teamSignIn: (method) => signIns.inc({ method }),
    teamSignInFailed: (reason) => signInFailures.inc({ reason }),
    scrape: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

/** The metrics listener: where it listens, and how to close it. */
export interface MetricsListener {
  /** `http://HOST:PORT` */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (and `HEAD`) on `listen`, a listener of its own: 200 with the scrape; 405 with
 * `Allow: GET, HEAD` for another method; 404 for any other path. A scrape that fails as a whole (it does
 * not when only the database does) is 500, logged.
 * @throws when the address cannot be listened on (taken, not this machine's)
 */
export async function serveMetrics(listen: MetricsListen, metrics: ServerMetrics, logger: Logger): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Use GET\n');
    metrics.scrape().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        logger.error({ err }, 'metrics: scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  return {
    url: `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
