// `npm run bench -- --only=queue`: the team console's queue at scale (DESIGN.md §4's budgets for the console):
// with 100,000 stored requests on PGlite, GET /api/team/requests (first page, default limit) within 100 ms p99
// and a text search (`q`) within 200 ms p99, measured one request at a time against the Sonde server
// started as in production on a PGlite directory filled beforehand.
import { rm } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../server/db/database.ts';
import { vacuumPglite } from '../server/db/maintenance.ts';
import { deliveries, teamMembers } from '../server/db/schema.ts';
import { addMember } from '../server/db/team.ts';
import { startSession } from '../server/db/teamSessions.ts';
import { TEAM_QUEUE_PAGE_MAX } from '../server/limits.ts';

/** Requests stored before measuring. */
const QUEUE_ROWS = 100_000;
/** Share of them that are privacy requests (the rest invite requests). */
const PRIVACY_SHARE = 0.2;
/** Requests answered, one at a time, before measuring (not counted). */
const WARM_UP = 20;
/** Measured requests of each kind: the first page, then text searches. */
const SAMPLES = 200;

const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Barbara', 'Edsger', 'Frances', 'Donald', 'Margaret', 'Ken', 'Radia', 'Niklaus', 'Katherine', 'John', 'Shafi', 'Leslie', 'Hedy', 'Tim', 'Sophie', 'Dennis', 'Annie', 'Linus', 'Mary', 'Guido', 'Joan', 'Bjarne', 'Evelyn', 'Yukihiro', 'Lynn', 'James', 'Adele'];
/** Surnames; the searches look for fragments of them, so each matches about 1/40 of the rows. */
const SURNAMES = ['Lovelace', 'Hopper', 'Turing', 'Liskov', 'Dijkstra', 'Allen', 'Knuth', 'Hamilton', 'Thompson', 'Perlman', 'Wirth', 'Johnson', 'McCarthy', 'Goldwasser', 'Lamport', 'Lamarr', 'Berners-Lee', 'Wilson', 'Ritchie', 'Easley', 'Torvalds', 'Shaw', 'Rossum', 'Clarke', 'Stroustrup', 'Boyd', 'Matsumoto', 'Conway', 'Gosling', 'Goldberg', 'Backus', 'Kay', 'Engelbart', 'Sutherland', 'Hoare', 'Milner', 'Floyd', 'Karp', 'Rivest', 'Shamir'];
const COMPANIES = ['Acme Search', 'Globex', 'Initech', 'Umbrella Labs', 'Hooli', 'Vandelay Industries', 'Stark Analytics', 'Wayne Data', 'Tyrell Systems', 'Cyberdyne', 'Soylent Corp', 'Wonka Retrieval', 'Aperture Science', 'Black Mesa', 'Massive Dynamic', 'Oscorp', 'Pied Piper', 'Dunder Mifflin', 'Gringotts', 'Monsters Inc'];
const TIMEZONES = ['Europe/Paris', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Europe/Berlin', 'UTC'];

/** `array['a', 'b']`: a SQL array literal of these constants (quotes doubled). */
const textArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}]::text[]`;

/**
 * Fills a fresh, migrated PGlite directory with {@link QUEUE_ROWS} requests as `accept_submission`
 * (server/db/functions/) stores them, plus what the team did since: 80 % invite requests (review states
 * received 45 %, waitlisted 20 %, accepted 15 % into one of six cohorts, declined 13 %, spam 7 %; each
 * decided one handled within 10 days), 20 % privacy requests with their record of 11 CCR §7101 (60 %
 * verified, half answered), received over the last 365 days. Then a team member and a session, and the
 * vacuum the server runs on PGlite (server/db/maintenance.ts).
 * @returns the session's token, and how many rows have a `search_text` (the generated column)
 */
async function fillQueue(pgliteDir: string): Promise<{ token: string; rows: number; searchable: number; seconds: number }> {
  const database = await openDatabase({ pgliteDir });
  const started = performance.now();
  try {
    const { db } = database;
    await db.execute(sql.raw(`select setseed(0.34)`));
    await db.execute(sql.raw(`insert into cohorts (name, starts_on, capacity, created_by)
      select 'Cohort ' || c, (date '2026-01-05' + c * 30), null, 'bench' from generate_series(1, 6) c`));
    await db.execute(sql.raw(`
      insert into submissions (kind, received_at, idempotency_key, body_sha256, email, mailbox, client_key, body,
                               due_at, handled_at, handled_by, handled_note, review_state, cohort_id)
      select kind, received_at, gen_random_uuid()::text, encode(sha256(convert_to(body::text, 'UTF8')), 'hex'),
             email, mailbox_of(email), encode(sha256(convert_to('10.' || (i % 200) || '.' || (i % 97) || '.1', 'UTF8')), 'hex'), body,
             case when kind = 'privacy' then received_at + interval '45 days' end,
             handled_at, case when handled_at is not null then 'bench' end,
             case when handled_at is null then null when kind = 'privacy' then 'complied' when state = 'declined' then 'declined: not a fit yet' else state end,
             case when kind = 'invite' then state end,
             case when state = 'accepted' then cohort_ids[1 + i % 6] end
      from (
        select g.*,
               jsonb_build_object('event', 'invite_request', 'data', jsonb_build_object(
                 'fullName', first || ' ' || last, 'workEmail', email,
                 'roleTitle', case when kind = 'privacy' then 'Privacy Request' else 'Engineer' end,
                 'companyName', case when kind = 'privacy' and i % 3 = 0 then 'N/A' else company end,
                 'useCaseDescription', case when kind = 'privacy'
                   then E'CCPA Privacy Rights Request\\nRequest types: ' || types || E'\\nDetails: None provided'
                   else 'Grounding answers of our support agent in fresh web results.' end,
                 'primaryWorkloads', case when kind = 'privacy' then '["Other"]'::jsonb else '["RAG", "Agents"]'::jsonb end,
                 'mustHaveCapabilities', case when kind = 'privacy' then '[]'::jsonb else '["Freshness"]'::jsonb end,
                 'estimatedMonthlyQueries', case when kind = 'privacy' then 'N/A' else '5M' end,
                 'peakQPS', case when kind = 'privacy' then 'N/A' else '100 QPS' end,
                 'notes', case when kind = 'privacy' then 'CCPA RIGHTS REQUEST' end,
                 'consentGiven', true,
                 'submittedAt', to_char(received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'clientIP', case when i % 10 = 0 then null else '203.0.113.' || (i % 250) end,
                 'browserId', 'sonde_' || md5(i::text), 'userAgent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
                 'browserLanguage', 'en-US', 'timezone', (${textArray(TIMEZONES)})[1 + i % ${TIMEZONES.length}],
                 'screenResolution', '1280x800')) as body
        from (
          select i, kind, received_at, first, last, company, types, cohort_ids,
                 lower(first || '.' || replace(last, ' ', '') || i || '@' ||
                   case when i % 4 = 0 then 'gmail.com' else replace(lower(company), ' ', '') || '.example' end) as email,
                 case when kind = 'privacy' then null when r < 0.45 then 'received' when r < 0.65 then 'waitlisted'
                      when r < 0.80 then 'accepted' when r < 0.93 then 'declined' else 'spam' end as state,
                 case when kind = 'invite' and r >= 0.45 then least(now(), received_at + random() * interval '10 days')
                      when kind = 'privacy' and r < 0.3 then least(now(), received_at + random() * interval '40 days') end as handled_at
          from (
            select i, case when i % ${Math.round(1 / PRIVACY_SHARE)} = 0 then 'privacy' else 'invite' end as kind,
                   now() - random() * interval '365 days' as received_at, random() as r,
                   (${textArray(FIRST_NAMES)})[1 + (i * 7) % ${FIRST_NAMES.length}] as first,
                   (${textArray(SURNAMES)})[1 + (i * 13) % ${SURNAMES.length}] as last,
                   (${textArray(COMPANIES)})[1 + (i * 11) % ${COMPANIES.length}] as company,
                   (${textArray(['Access/Know', 'Delete', 'Access/Know, Delete', 'Opt-Out', 'Correct', 'Data Portability'])})[1 + i % 6] as types,
                   (select array_agg(id order by name) from cohorts) as cohort_ids
            from generate_series(1, ${QUEUE_ROWS}) i
          ) raw
        ) g
      ) rows`));
    // the record of 11 CCR §7101 of each privacy request, as accept_submission writes it, with the steps since
    await db.execute(sql.raw(`
      insert into privacy_records (id, received_at, request_types, due_at, confirmation_sent_at, verified_at, verified_by,
                                   responded_at, outcome, responded_by)
      select s.id, s.received_at, string_to_array(substring(s.body->'data'->>'useCaseDescription' from 'Request types: ([^\n]*)'), ', '),
             s.due_at, s.received_at + interval '1 minute',
             case when s.handled_at is not null or v < 0.6 then s.received_at + interval '2 hours' end,
             case when s.handled_at is not null or v < 0.6 then 'link' end,
             s.handled_at, case when s.handled_at is not null then 'complied' end, case when s.handled_at is not null then 'bench' end
      from (select *, random() as v from submissions where kind = 'privacy') s`));
    const [counts] = rowsOf<{ rows: number; searchable: number }>(await db.execute(sql.raw(`select count(*)::int as rows, count(search_text)::int as searchable from submissions`)));
    const at = new Date();
    await addMember(db, { email: 'bench@example.com', name: 'Bench', by: 'bench', at }, async () => 'unsent');
    const [member] = await db.select().from(teamMembers).where(eq(teamMembers.email, 'bench@example.com'));
    await db.delete(deliveries).where(eq(deliveries.memberId, member!.id)); // the enrollment mail: not part of the measure
    const token = await startSession(db, member!.id, at);
    // what the server does after its retention purge, at start and daily (PGlite has no autovacuum): done here so
    // that the server's own, at its start, finds nothing left to do before the measure
    await vacuumPglite(database);
    return { token, rows: counts!.rows, searchable: counts!.searchable, seconds: +((performance.now() - started) / 1000).toFixed(1) };
  } finally {
    await database.close(); // PGlite is one process's: the server opens the directory next
  }
}

/** What bench.mjs lends: its server starter, its percentiles and its budget lines. */
export interface QueueBenchTools {
  startSondeServer: (env: Record<string, string>) => Promise<{ url: string; listen: string; stop: () => Promise<void> }>;
  median: (xs: number[]) => number;
  percentile: (xs: number[], p: number) => number;
  check: (name: string, value: number, limit: number, unit: string) => void;
}

/** The queue's figures as bench.mjs records them. */
export interface QueueResult {
  rows: number;
  privacyRows: number;
  fillSeconds: number;
  pageSize: number;
  firstPage: { p50Ms: number; p99Ms: number; samples: number };
  search: { p50Ms: number; p99Ms: number; samples: number };
}

/**
 * Fills `pgliteDir` (emptied first), starts the server on it at `port`, and times GET /api/team/requests:
 * {@link SAMPLES} first pages, then {@link SAMPLES} searches for a surname fragment (varied per request),
 * sequentially after {@link WARM_UP} unmeasured ones; checks the budgets.
 * @throws when an answer is not 200 or a search finds nothing
 */
export async function queueBenchmark(tools: QueueBenchTools, options: { pgliteDir: string; port: number; distDir: string }): Promise<QueueResult> {
  await rm(options.pgliteDir, { recursive: true, force: true });
  console.log(`queue: storing ${QUEUE_ROWS.toLocaleString('en')} requests in PGlite…`);
  const filled = await fillQueue(options.pgliteDir);
  if (filled.rows !== QUEUE_ROWS || filled.searchable !== QUEUE_ROWS) throw new Error(`queue: ${filled.rows} rows stored, ${filled.searchable} with search_text`);
  console.log(`queue: stored in ${filled.seconds} s; GET /api/team/requests ×${SAMPLES}, then ?q= ×${SAMPLES}…`);
  const server = await tools.startSondeServer({ PORT: String(options.port), SONDE_PGLITE_DIR: options.pgliteDir, DATABASE_URL: '', SONDE_DIST_DIR: options.distDir });
  const headers = { cookie: `__Host-sonde_team=${filled.token}`, origin: server.url };
  const timed = async (query: string) => {
    const started = performance.now();
    const response = await fetch(`${server.listen}/api/team/requests${query}`, { headers });
    const body = (await response.json()) as { requests: unknown[] };
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`queue: GET /api/team/requests${query} answered ${response.status}`);
    return { ms, rows: body.requests.length };
  };
  // a fragment of a surname, varied per request: `ovel`, `hopp`, `urin`…
  const fragment = (i: number) => {
    const name = SURNAMES[i % SURNAMES.length]!.toLowerCase();
    const start = Math.floor(i / SURNAMES.length) % 2;
    return encodeURIComponent(name.slice(start, start + 4));
  };
  const page: number[] = [];
  const search: number[] = [];
  let pageSize = 0;
  try {
    for (let i = 0; i < WARM_UP; i += 1) await timed(i % 2 ? '' : `?q=${fragment(i)}`);
    for (let i = 0; i < SAMPLES; i += 1) {
      const { ms, rows } = await timed('');
      page.push(ms);
      pageSize = rows;
    }
    for (let i = 0; i < SAMPLES; i += 1) {
      const { ms, rows } = await timed(`?q=${fragment(i)}`);
      if (rows === 0) throw new Error(`queue: the search for ${fragment(i)} found nothing`);
      search.push(ms);
    }
  } finally {
    await server.stop();
  }
  const ms = (x: number) => +x.toFixed(1);
  const result: QueueResult = {
    rows: filled.rows,
    privacyRows: Math.round(QUEUE_ROWS * PRIVACY_SHARE),
    fillSeconds: filled.seconds,
    pageSize,
    firstPage: { p50Ms: ms(tools.median(page)), p99Ms: ms(tools.percentile(page, 99)), samples: page.length },
    search: { p50Ms: ms(tools.median(search)), p99Ms: ms(tools.percentile(search, 99)), samples: search.length },
  };
  if (pageSize !== TEAM_QUEUE_PAGE_MAX) throw new Error(`queue: the first page held ${pageSize} requests, not ${TEAM_QUEUE_PAGE_MAX}`);
  tools.check('queue first page p99, 100k rows, PGlite', result.firstPage.p99Ms, 100, 'ms');
  tools.check('queue text search p99, 100k rows, PGlite', result.search.p99Ms, 200, 'ms');
  return result;
}
