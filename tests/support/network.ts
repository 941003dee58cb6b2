import { http, HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';
import { SUBMIT_ENDPOINT } from '@/config/site';
import { VERIFICATION_ENDPOINTS } from '@/services/verification';
import { ipLookupUrl, MOCK_CLIENT_IP } from '../../mocks/handlers';
import { server } from '../../mocks/node';

/**
 * The one request recorder of the jsdom tests: what crosses the (MSW) network, whichever handler
 * answers it, from MSW's life-cycle events. tests/setup.ts starts it once and empties it after each test.
 */

/** A submission body as it crossed the network: JSON, not checked against the §7.1 type. */
export type SentBody = { event: string; data: Record<string, unknown> };

/** One request the page sent, and what it got back. */
export interface SentRequest {
  method: string;
  /** absolute URL */
  url: string;
  headers: Headers;
  /** the JSON body, once read (undefined for a request without one) */
  body: unknown;
  /** the status answered; 0 for a network error; undefined while unanswered */
  status: number | undefined;
}

const requests = new Map<string, SentRequest>();

function isSubmission(request: SentRequest): boolean {
  return request.method === 'POST' && new URL(request.url).pathname === new URL(SUBMIT_ENDPOINT, 'http://localhost').pathname;
}

export const network = {
  /** Every request, in the order it was sent. */
  all(): SentRequest[] {
    return [...requests.values()];
  },
  /** Every POST to the submission endpoint (spec §7.1), answered or not. */
  submissions(): SentRequest[] {
    return network.all().filter(isSubmission);
  },
  /** The bodies the endpoint accepted (answered 2xx): what the server would have stored. */
  delivered(): SentBody[] {
    return network
      .submissions()
      .filter((request) => request.status !== undefined && request.status >= 200 && request.status < 300)
      .map((request) => request.body as SentBody);
  },
  /** Requests to the IP-lookup service (spec §7.2). */
  lookups(): SentRequest[] {
    return network.all().filter((request) => request.url.startsWith(ipLookupUrl));
  },
  /** Forgets everything (tests/setup.ts, after each test). */
  reset() {
    requests.clear();
  },
};

/** Records every request of `msw` (tests/setup.ts calls it once). */
export function recordNetwork(msw: SetupServer = server): void {
  msw.events.on('request:start', ({ request, requestId }) => {
    const entry: SentRequest = { method: request.method, url: request.url, headers: request.headers, body: undefined, status: undefined };
    requests.set(requestId, entry);
    void request
      .clone()
      .text()
      .then((text: string) => {
        entry.body = text ? (JSON.parse(text) as unknown) : undefined;
      })
      .catch(() => {});
  });
  msw.events.on('response:mocked', ({ response, requestId }) => {
    const entry = requests.get(requestId);
    if (entry) entry.status = response.type === 'error' ? 0 : response.status;
  });
}

/** The next submissions wait until `release()`, then get `status` (DESIGN.md §3: see `submitting`). */
export function holdSubmissions(status = 201) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.post(SUBMIT_ENDPOINT, async () => {
      await released;
      return new HttpResponse(null, { status });
    }),
  );
  return { release };
}

/**
 * The IP lookup and the submission endpoint under a test's control (DESIGN.md §3): each request is held
 * until the path's step releases it, so that `lookingUp` and `sending` can be seen.
 */
export function heldNetwork() {
  const lookups: Array<() => void> = [];
  const posts: Array<(status: number) => void> = [];
  server.use(
    http.get(ipLookupUrl, () => new Promise<Response>((resolve) => lookups.push(() => resolve(HttpResponse.json({ ip: MOCK_CLIENT_IP }))))),
    http.post(SUBMIT_ENDPOINT, () => new Promise<Response>((resolve) => posts.push((status) => resolve(new HttpResponse(null, { status }))))),
  );
  return {
    /** answers the pending IP lookup with MOCK_CLIENT_IP */
    answerLookup: () => lookups.at(-1)?.(),
    /** answers the latest pending POST with this status */
    answerPost: (status: number) => posts.at(-1)?.(status),
  };
}

/** A well-formed verification token (11 CCR §7060): 43 characters of base64url. */
export const SAMPLE_TOKEN = 'sOnDe_verification-token_0123456789abcdefgh';

/**
 * The verification calls of /privacy-request/verify (11 CCR §7060) under a test's control: each is held
 * until the step answers it, so that `lookingUp` and `confirming` can be seen.
 */
export function heldVerification() {
  const pending: Array<{ kind: 'lookUp' | 'confirm'; answer: (response: Response) => void }> = [];
  const hold = (kind: 'lookUp' | 'confirm') => () =>
    new Promise<Response>((resolve) => pending.push({ kind, answer: resolve }));
  server.use(http.post(VERIFICATION_ENDPOINTS.lookUp, hold('lookUp')), http.post(VERIFICATION_ENDPOINTS.confirm, hold('confirm')));
  return {
    /** answers the latest pending call of `kind` with this status and JSON body */
    answer(kind: 'lookUp' | 'confirm', status: number, body: unknown) {
      const call = pending.filter((p) => p.kind === kind).at(-1);
      call?.answer(HttpResponse.json(body as Record<string, unknown> | null, { status }));
    },
    /** fails the latest pending call of `kind` as a network error (no answer) */
    fail(kind: 'lookUp' | 'confirm') {
      pending.filter((p) => p.kind === kind).at(-1)?.answer(HttpResponse.error());
    },
    /** the calls sent so far, each with its body */
    sent(kind: 'lookUp' | 'confirm'): SentRequest[] {
      const url = VERIFICATION_ENDPOINTS[kind];
      return network.all().filter((request) => request.method === 'POST' && new URL(request.url).pathname === new URL(url, 'http://localhost').pathname);
    },
  };
}
