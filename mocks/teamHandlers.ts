import { http, HttpResponse } from 'msw';
import {
  TEAM_API_PATH,
  type Cohort,
  type DecisionRequest,
  type MailPreview,
  type PreviewRequest,
  type QueueFilters,
  type QueuePage,
  type QueueState,
  type RequestDetail,
  type RequestSummary,
} from '#shared/team';

// The team's API (server/http/team/, shapes in shared/team.ts) as MSW answers it for the console's views:
// a small queue of invite and privacy requests, their pages, the cohorts, the previews and the decisions.
// Success paths only (DESIGN.md §2); a test overrides a route with `server.use(...)` for a failure.

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString();

/** A request of the mocked queue. */
const summary = (id: string, fields: Partial<RequestSummary> & Pick<RequestSummary, 'kind' | 'fullName' | 'email' | 'company'>): RequestSummary => ({
  id,
  receivedAt: day(-Number(id.slice(-2))),
  status: 'open',
  ...fields,
});

/** The mocked queue, newest first: three invite requests, three privacy requests (due in 20, 3 and -2 days). */
export const TEAM_REQUESTS: RequestSummary[] = [
  summary('00000000-0000-4000-8000-000000000001', { kind: 'invite', fullName: 'Ada Lovelace', email: 'ada@analytical.example', company: 'Analytical Engines', state: 'received' }),
  summary('00000000-0000-4000-8000-000000000002', {
    kind: 'privacy',
    fullName: 'Katherine Johnson',
    email: 'katherine@orbit.example',
    company: 'Orbit',
    verification: 'unverified',
    course: 'unverified',
    dueAt: day(3),
    daysLeft: 3,
  }),
  summary('00000000-0000-4000-8000-000000000003', { kind: 'invite', fullName: 'Grace Hopper', email: 'grace@cobol.example', company: 'Cobol Co', state: 'waitlisted' }),
  summary('00000000-0000-4000-8000-000000000004', {
    kind: 'invite',
    fullName: 'Alan Turing',
    email: 'alan@bletchley.example',
    company: 'Bletchley',
    state: 'accepted',
    cohort: 'Cohort 1',
    status: 'done',
  }),
  summary('00000000-0000-4000-8000-000000000005', {
    kind: 'privacy',
    fullName: 'Dorothy Vaughan',
    email: 'dorothy@fortran.example',
    company: 'Fortran',
    verification: 'verified',
    course: 'verified',
    dueAt: day(20),
    daysLeft: 20,
  }),
  summary('00000000-0000-4000-8000-000000000006', {
    kind: 'privacy',
    fullName: 'Mary Jackson',
    email: 'mary@wind.example',
    company: 'Wind Tunnel',
    verification: 'not needed',
    course: 'notNeeded',
    dueAt: day(-2),
    daysLeft: -2,
  }),
];

/** The mocked cohorts: one with room, one full. */
export const TEAM_COHORTS: Cohort[] = [
  { id: 'c0000000-0000-4000-8000-000000000001', name: 'Cohort 1', startsOn: '2027-01-15', capacity: 25, accepted: 12 },
  { id: 'c0000000-0000-4000-8000-000000000002', name: 'Cohort 2', startsOn: '2027-03-01', capacity: 2, accepted: 2 },
];

/** The mocked queue's page size: the first page holds four requests, the next the rest. */
const TEAM_PAGE_SIZE = 4;

/** Whether a request is in `state` (shared/team.ts `QueueState`). */
function inState(request: RequestSummary, state: QueueState): boolean {
  if (state === 'open' || state === 'done') return request.status === state;
  if (state === 'overdue') return request.status === 'open' && (request.daysLeft ?? 0) < 0;
  return request.state === state;
}

/** The requests of the mocked queue that match `filters`. */
function matching(filters: QueueFilters): RequestSummary[] {
  const q = filters.q?.toLowerCase();
  return TEAM_REQUESTS.filter(
    (request) =>
      (!filters.kind || request.kind === filters.kind) &&
      (!filters.state || inState(request, filters.state)) &&
      (!filters.cohort || request.cohort === filters.cohort) &&
      (!q || [request.fullName, request.email, request.company].some((text) => text.toLowerCase().includes(q))),
  );
}

/** One page of the mocked queue as the server answers it; `after`: `page-<offset>`. */
export function queuePageOf(query: URLSearchParams): QueuePage {
  const filters = Object.fromEntries(['kind', 'state', 'cohort', 'q'].flatMap((key) => (query.get(key) ? [[key, query.get(key)]] : []))) as QueueFilters;
  const offset = Number(query.get('after')?.replace('page-', '') ?? 0);
  const all = matching(filters);
  const counts: QueuePage['counts'] = {};
  for (const state of ['received', 'waitlisted', 'accepted', 'declined', 'spam', 'open', 'done', 'overdue'] as const) {
    counts[state] = matching({ ...filters, state: undefined }).filter((request) => inState(request, state)).length;
  }
  const requests = all.slice(offset, offset + TEAM_PAGE_SIZE);
  return { requests, next: offset + TEAM_PAGE_SIZE < all.length ? `page-${offset + TEAM_PAGE_SIZE}` : null, counts };
}

/** A mocked request's page; the invite request's fields carry markup, which the console shows as text. */
function detailOf(request: RequestSummary): RequestDetail {
  return {
    request,
    fields: {
      fullName: request.fullName,
      workEmail: request.email,
      companyName: request.company,
      ...(request.kind === 'privacy'
        ? { useCaseDescription: `Request types: ${request.verification === 'not needed' ? 'Opt-Out' : 'Access/Know, Delete'}` }
        : { useCaseDescription: '<img src=x onerror="alert(1)"> Searching papers', expectedVolume: '10k-100k' }),
    },
    metadata: { submittedAt: request.receivedAt, clientIP: '203.0.113.7', browserId: null, userAgent: 'Mozilla/5.0', browserLanguage: 'en-US', timezone: 'UTC', screenResolution: '1280x720' },
    timeline: [
      { event: 'received', at: request.receivedAt, how: 'web form' },
      { event: 'mail', at: request.receivedAt, message: 'submission-received', delivery: 'delivered', deliveredAt: request.receivedAt },
      { event: 'note', at: request.receivedAt, by: 'Grace', text: 'Looks like a research team.' },
    ],
    sameMailbox:
      request.kind === 'invite'
        ? [
            { id: '00000000-0000-4000-8000-000000000099', kind: 'invite', receivedAt: day(-40), state: 'declined', email: request.email.toLowerCase(), sameAddress: true },
            { id: '00000000-0000-4000-8000-000000000098', kind: 'invite', receivedAt: day(-50), state: 'received', email: request.email.toLowerCase().replace('@', '+old@'), sameAddress: false },
          ]
        : [],
  };
}

/** The mails a decision would send, as the preview answers: one per request, none for spam, reopen or verify. */
export function previewOf(body: PreviewRequest): MailPreview[] {
  if (body.decision === 'spam' || body.decision === 'reopen' || body.decision === 'verify') return [];
  return body.ids.map((id) => {
    const request = TEAM_REQUESTS.find((candidate) => candidate.id === id);
    return { id, to: request?.email ?? 'someone@example.com', subject: `Your Sonde request: ${body.decision}`, text: `Hello ${request?.fullName ?? ''},\n\nThe team decided: ${body.decision}.${body.cohort ? ` Cohort: ${body.cohort}.` : ''}` };
  });
}

const api = (path: string) => `${TEAM_API_PATH}${path}`;

/** The team's API, answered as the server does on success (shared/team.ts). */
export const teamHandlers = [
  http.get(api('/session'), () => HttpResponse.json({ email: 'member@sonde.dev', name: 'Member' })),
  http.get(api('/requests'), ({ request }) => HttpResponse.json(queuePageOf(new URL(request.url).searchParams))),
  http.get(api('/requests/:id'), ({ params }) => {
    const request = TEAM_REQUESTS.find((candidate) => candidate.id === params.id);
    return request ? HttpResponse.json(detailOf(request)) : HttpResponse.json({ error: 'No such request' }, { status: 404 });
  }),
  http.get(api('/cohorts'), () => HttpResponse.json({ cohorts: TEAM_COHORTS })),
  http.post(api('/cohorts'), async ({ request }) => {
    const body = (await request.json()) as { name: string; startsOn: string; capacity: number | null };
    if (TEAM_COHORTS.some((cohort) => cohort.name === body.name)) return HttpResponse.json({ error: `A cohort named "${body.name}" exists already` }, { status: 409 });
    return HttpResponse.json({ cohort: { id: crypto.randomUUID(), name: body.name, startsOn: body.startsOn, capacity: body.capacity, accepted: 0 } }, { status: 201 });
  }),
  http.post(api('/preview'), async ({ request }) => HttpResponse.json({ mails: previewOf((await request.json()) as PreviewRequest) })),
  http.post(api('/decisions'), async ({ request }) => {
    const body = (await request.json()) as DecisionRequest;
    return HttpResponse.json({ decided: body.ids.map((id) => ({ id, from: 'received', to: body.decision })) });
  }),
  http.post(api('/privacy/:step'), async ({ request }) => {
    const body = (await request.json()) as { id: string };
    const found = TEAM_REQUESTS.find((candidate) => candidate.id === body.id);
    return found ? HttpResponse.json({ request: found }) : HttpResponse.json({ error: 'No such request' }, { status: 404 });
  }),
  http.post(api('/notes'), () => new HttpResponse(null, { status: 201 })),
];
