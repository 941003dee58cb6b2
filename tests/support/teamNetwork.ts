import { http, HttpResponse } from 'msw';
import { vi } from 'vitest';
import { TEAM_API_PATH, type TeamMember } from '#shared/team';
import { server } from '../../mocks/node';
import { network, type SentRequest } from './network';

/**
 * The team console's sign-in and enrollment calls (server/http/team/passkeys.ts) under a test's control,
 * and a stand-in for the browser's WebAuthn (`navigator.credentials`), which jsdom lacks.
 */

/** The member the tests sign in. */
export const TEAM_MEMBER: TeamMember = { email: 'kim@sonde.dev', name: 'Kim Lee' };

/** A well-formed enrollment link token: 43 characters of base64url. */
export const ENROLL_TOKEN = 'eNrOlL_team-link-token_0123456789abcdefghij';

/** The challenge of the options the server answers (base64url). */
export const CHALLENGE = 'Y2hhbGxlbmdlLW9mLXRoZS10ZXN0';

/** The id of the credential the stand-in authenticator answers with (base64url of its raw id). */
export const CREDENTIAL_ID = 'Y3JlZGVudGlhbC0x';

/** What `POST /signin/options` answers: WebAuthn Level 3 request options, user verification required. */
export const SIGN_IN_OPTIONS = { options: { challenge: CHALLENGE, rpId: 'localhost', userVerification: 'required', allowCredentials: [] }, challengeId: 'challenge-1' };

/** What `POST /enroll/options` answers: creation options for a discoverable credential. */
export const ENROLL_OPTIONS = {
  options: {
    challenge: CHALLENGE,
    rp: { id: 'localhost', name: 'Sonde team console' },
    user: { id: 'dXNlci0x', name: TEAM_MEMBER.email, displayName: TEAM_MEMBER.name },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  },
};

/** The team calls a test holds, by name. */
export type TeamCall = 'session' | 'signInOptions' | 'signInVerify' | 'signOut' | 'enrollOptions' | 'enrollVerify';

const CALLS: Record<TeamCall, { method: 'GET' | 'POST'; path: string }> = {
  session: { method: 'GET', path: `${TEAM_API_PATH}/session` },
  signInOptions: { method: 'POST', path: `${TEAM_API_PATH}/signin/options` },
  signInVerify: { method: 'POST', path: `${TEAM_API_PATH}/signin/verify` },
  signOut: { method: 'POST', path: `${TEAM_API_PATH}/signout` },
  enrollOptions: { method: 'POST', path: `${TEAM_API_PATH}/enroll/options` },
  enrollVerify: { method: 'POST', path: `${TEAM_API_PATH}/enroll/verify` },
};

/**
 * Every call of `held` waits until the test answers it, so that `checking`, `signingIn`, … can be seen;
 * the others answer at once as the server would for a browser without a session (`session`: 204) or
 * with a good passkey.
 */
export function heldTeamApi(held: readonly TeamCall[] = Object.keys(CALLS) as TeamCall[]) {
  const pending: Array<{ call: TeamCall; answer: (response: Response) => void }> = [];
  const immediate: Record<TeamCall, () => Response> = {
    session: () => new HttpResponse(null, { status: 204 }),
    signInOptions: () => HttpResponse.json(SIGN_IN_OPTIONS),
    signInVerify: () => HttpResponse.json(TEAM_MEMBER),
    signOut: () => new HttpResponse(null, { status: 204 }),
    enrollOptions: () => HttpResponse.json(ENROLL_OPTIONS),
    enrollVerify: () => HttpResponse.json(TEAM_MEMBER),
  };
  server.use(
    ...(Object.entries(CALLS) as Array<[TeamCall, (typeof CALLS)[TeamCall]]>).map(([call, { method, path }]) =>
      (method === 'GET' ? http.get : http.post)(path, () =>
        held.includes(call) ? new Promise<Response>((resolve) => pending.push({ call, answer: resolve })) : immediate[call](),
      ),
    ),
  );
  const latest = (call: TeamCall) => pending.filter((p) => p.call === call).at(-1);
  return {
    /** whether a call of this name waits for an answer */
    isPending: (call: TeamCall) => latest(call) !== undefined,
    /** answers the latest pending call of `call` with this status and JSON body (none for 204) */
    answer(call: TeamCall, status: number, body?: unknown) {
      const waiting = latest(call);
      if (!waiting) throw new Error(`no ${call} call is waiting`);
      pending.splice(pending.indexOf(waiting), 1);
      waiting.answer(status === 204 ? new HttpResponse(null, { status }) : HttpResponse.json(body as Record<string, unknown>, { status }));
    },
    /** fails the latest pending call of `call` as a network error (no answer) */
    fail(call: TeamCall) {
      const waiting = latest(call);
      if (!waiting) throw new Error(`no ${call} call is waiting`);
      pending.splice(pending.indexOf(waiting), 1);
      waiting.answer(HttpResponse.error());
    },
    /** the calls of `call` sent so far, each with its body */
    sent(call: TeamCall): SentRequest[] {
      const { method, path } = CALLS[call];
      return network.all().filter((request) => request.method === method && new URL(request.url).pathname === path);
    },
  };
}

const buffer = (text: string) => new TextEncoder().encode(text).buffer;

/**
 * A stand-in for the browser's WebAuthn: `PublicKeyCredential` exists, and `navigator.credentials.get`
 * and `.create` resolve with a fixed credential, or reject as a browser does when the member closes the
 * dialog (`NotAllowedError`) after `cancelNext()`. Removed by `restore()`.
 */
export function fakeAuthenticator() {
  let cancel = false;
  const settle = <T>(value: T) =>
    cancel ? Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError')) : Promise.resolve(value);
  const base = { id: CREDENTIAL_ID, rawId: buffer('credential-1'), type: 'public-key', authenticatorAttachment: 'platform', getClientExtensionResults: () => ({}) };
  const credentials = {
    get: vi.fn(() =>
      settle({
        ...base,
        response: { authenticatorData: buffer('authenticator-data'), clientDataJSON: buffer('{"type":"webauthn.get"}'), signature: buffer('signature'), userHandle: buffer('user-1') },
      }),
    ),
    create: vi.fn(() =>
      settle({
        ...base,
        response: { attestationObject: buffer('attestation'), clientDataJSON: buffer('{"type":"webauthn.create"}'), getTransports: () => ['internal'] },
      }),
    ),
  };
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true });
  return {
    credentials,
    /** the next ceremonies reject as cancelled, until `acceptNext()` */
    cancelNext: () => void (cancel = true),
    acceptNext: () => void (cancel = false),
    restore() {
      vi.unstubAllGlobals();
      Reflect.deleteProperty(navigator, 'credentials');
    },
  };
}

/** The team's calls a model test holds until its step answers them. */
export type HeldCall = 'queue' | 'preview' | 'decide';

const ROUTES: Record<HeldCall, { method: 'get' | 'post'; path: string }> = {
  queue: { method: 'get', path: '/requests' },
  preview: { method: 'post', path: '/preview' },
  decide: { method: 'post', path: '/decisions' },
};

/**
 * Holds the team's queue, preview and decision calls until the test answers them (DESIGN.md §3: so that
 * `loading` or `submitting` can be asserted), the other routes answered as usual. Every call held of a
 * kind is answered alike: under StrictMode a page's first actor is stopped and its call's answer ignored.
 */
export function holdTeamCalls() {
  const held: Record<HeldCall, Array<(response: Response) => void>> = { queue: [], preview: [], decide: [] };
  for (const [kind, route] of Object.entries(ROUTES) as Array<[HeldCall, (typeof ROUTES)[HeldCall]]>) {
    server.use(http[route.method](`${TEAM_API_PATH}${route.path}`, () => new Promise<Response>((resolve) => held[kind].push(resolve))));
  }
  const release = (kind: HeldCall, response: () => Response) => {
    const waiting = held[kind].splice(0);
    if (waiting.length === 0) throw new Error(`no ${kind} call is waiting for an answer`);
    for (const resolve of waiting) resolve(response());
  };
  return {
    /** Answers every waiting call of `kind` with `status` and the JSON `body`. */
    answer: (kind: HeldCall, status: number, body: unknown) => release(kind, () => HttpResponse.json(body as Record<string, unknown>, { status })),
    /** Fails every waiting call of `kind` as the network does (no answer). */
    fail: (kind: HeldCall) => release(kind, () => HttpResponse.error()),
    /** How many calls of `kind` wait. */
    waiting: (kind: HeldCall) => held[kind].length,
  };
}
