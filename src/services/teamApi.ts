import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import {
  TEAM_API_PATH,
  type ChangedMeanwhile,
  type Cohort,
  type DecisionRequest,
  type MailPreview,
  type PreviewRequest,
  type PrivacyStepRequest,
  type QueueFilters,
  type QueuePage,
  type RequestDetail,
  type RequestSummary,
  type TeamMember,
  type TeamProblem,
} from '#shared/team';
import { TEAM_CALL_TIMEOUT_MS } from '@/config/site';

// The team console's calls to the team's API (server/http/team/, shapes in shared/team.ts). Same origin
// only: the session is a `__Host-` cookie (HttpOnly, SameSite=Strict) the browser sends by itself, and
// the server checks the `Origin` every `fetch` sends. The machines of machines/team*.ts invoke these.

/** A team call that did not succeed. */
export class TeamApiError extends Error {
  /** the status answered, or null when no answer came (network error, time-out, offline) */
  readonly status: number | null;
  /** 409: why the chart refused, one line per request */
  readonly refusals: readonly string[];
  /** 409: each request no longer in the state the member saw, with who changed it and when */
  readonly changed: readonly ChangedMeanwhile[];

  constructor(message: string, status: number | null, refusals: readonly string[] = [], changed: readonly ChangedMeanwhile[] = []) {
    super(message);
    this.name = 'TeamApiError';
    this.status = status;
    this.refusals = refusals;
    this.changed = changed;
  }

  /** 401: no session, or it ended (idle, absolute limit, signed out elsewhere, member removed) */
  get isSessionEnded(): boolean {
    return this.status === 401;
  }
}

/** Whether an error is the browser's refusal or cancellation of a passkey ceremony (the member closed the dialog). */
export function isCeremonyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

/**
 * One call to `/api/team{path}`, JSON both ways, given up after TEAM_CALL_TIMEOUT_MS ms.
 * @returns the parsed answer; undefined for 204
 * @throws TeamApiError with the answer's `{ error, refusals, changed }` and status; with status null when no answer came
 */
async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(TEAM_CALL_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${TEAM_API_PATH}${path}`, {
      method,
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new TeamApiError(timeout.aborted ? 'The server did not answer in time' : 'The server could not be reached', null);
  }
  if (response.status === 204) return undefined as T;
  const answer = (await response.json().catch(() => ({}))) as T & Partial<TeamProblem>;
  if (!response.ok) throw new TeamApiError(answer.error ?? `The server answered ${response.status}`, response.status, answer.refusals ?? [], answer.changed ?? []);
  return answer;
}

/** The query string of the queue's filters, without empty ones. */
function queueQuery(filters: QueueFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The member signed in, or null when the browser holds no live session (204: none, or it passed its idle
 * or absolute limit). Asking is no failure, so a signed-out visit logs no failed request.
 * @throws TeamApiError when no answer came, or another status (403, 503)
 */
export async function fetchSession(signal?: AbortSignal): Promise<TeamMember | null> {
  return (await call<TeamMember | undefined>('GET', '/session', undefined, signal)) ?? null;
}

/**
 * Signs in with a passkey: the server's challenge, the browser's ceremony (a discoverable credential,
 * user verification required), the server's check; the server then sets the session cookie.
 * @throws the browser's `NotAllowedError` when the member cancels ({@link isCeremonyCancelled}); TeamApiError 401 when the passkey is refused, 429 when rate-limited
 */
export async function signIn(): Promise<TeamMember> {
  const { options, challengeId } = await call<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON']; challengeId: string }>('POST', '/signin/options');
  const response = await startAuthentication({ optionsJSON: options });
  return call('POST', '/signin/verify', { challengeId, response });
}

/**
 * Registers this device's passkey with an enrollment link's token, and signs in.
 * @throws TeamApiError 410 when the link was used, expired or revoked; the browser's `NotAllowedError` when cancelled
 */
export async function enroll(token: string): Promise<TeamMember> {
  const { options } = await call<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>('POST', '/enroll/options', { token });
  const response = await startRegistration({ optionsJSON: options });
  return call('POST', '/enroll/verify', { token, response });
}

/** Ends the session (the server deletes it and clears the cookie). */
export function signOut(): Promise<void> {
  return call('POST', '/signout');
}

/** One page of the queue, newest first; `after`: the previous page's `next`. */
export function fetchQueue(filters: QueueFilters, after?: string, signal?: AbortSignal): Promise<QueuePage> {
  return call('GET', `/requests${queueQuery(filters, after ? { after } : {})}`, undefined, signal);
}

/** Where the CSV of every request of the filter downloads from (a link: the browser sends the session cookie). */
export function queueCsvUrl(filters: QueueFilters): string {
  return `${TEAM_API_PATH}/requests.csv${queueQuery(filters)}`;
}

/** A request's page; TeamApiError 404 when there is none. */
export function fetchRequest(id: string, signal?: AbortSignal): Promise<RequestDetail> {
  return call('GET', `/requests/${encodeURIComponent(id)}`, undefined, signal);
}

/**
 * One decision on invite requests, each from the review state the member saw (`from`); TeamApiError 409
 * with `refusals` when any is refused, and `changed` for each no longer in that state (then nothing changed).
 */
export function decide(request: DecisionRequest): Promise<{ decided: Array<{ id: string; from: string; to: string }> }> {
  return call('POST', '/decisions', request);
}

/**
 * A privacy request's step from the course state the member saw (`from`); TeamApiError 409 when the
 * course refuses it or is no longer in that state (`changed`), 400 for a missing basis or reason.
 */
export function takePrivacyStep({ step, ...body }: PrivacyStepRequest): Promise<{ request: RequestSummary }> {
  return call('POST', `/privacy/${step}`, body);
}

/** The mails a decision or step would send, nothing stored. */
export async function previewMails(request: PreviewRequest): Promise<MailPreview[]> {
  return (await call<{ mails: MailPreview[] }>('POST', '/preview', request)).mails;
}

/** Adds a note to a request's timeline; TeamApiError 404 when there is no such request. */
export function addNote(requestId: string, text: string): Promise<void> {
  return call('POST', '/notes', { requestId, text });
}

/** Every cohort, by start date, with how full it is. */
export async function fetchCohorts(signal?: AbortSignal): Promise<Cohort[]> {
  return (await call<{ cohorts: Cohort[] }>('GET', '/cohorts', undefined, signal)).cohorts;
}

/** Creates a cohort; TeamApiError 409 when one of that name exists. */
export async function addCohort(cohort: { name: string; startsOn: string; capacity: number | null }): Promise<Cohort> {
  return (await call<{ cohort: Cohort }>('POST', '/cohorts', cohort)).cohort;
}
