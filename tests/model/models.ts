import type { AnyEventObject, AnyStateMachine, AnyMachineSnapshot } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { privacyRequestToInvitePayload } from '@/forms/privacyRequest';
import { consentMachine, type ConsentInput } from '#machines/consentMachine';
import { inviteMachine } from '#machines/inviteMachine';
import { optOutToastMachine } from '#machines/optOutToastMachine';
import { outboxMachine, type KeepRequest } from '#machines/outboxMachine';
import { privacyRequestMachine } from '#machines/privacyRequestMachine';
import { verifyMachine, type VerifyInput } from '#machines/verifyMachine';
import { teamEnrollMachine, type TeamEnrollInput } from '#machines/teamEnrollMachine';
import { teamSessionMachine } from '#machines/teamSessionMachine';
import { TeamApiError } from '@/services/teamApi';
import { ENROLL_TOKEN, TEAM_MEMBER } from '../support/teamNetwork';
import { teamDecisionMachine } from '#machines/teamDecisionMachine';
import { teamQueueMachine } from '#machines/teamQueueMachine';
import { previewOf, queuePageOf, TEAM_COHORTS, TEAM_REQUESTS } from '../../mocks/teamHandlers';
import { VerificationError, type VerificationAnswer } from '@/services/verification';
import { SAMPLE_TOKEN } from '../support/network';
import { SubmissionError } from '@/services/submission';
import { MOCK_CLIENT_IP } from '../../mocks/handlers';
import type { InvitePayload } from '#shared/submission';
import { visitorPayload } from '../inviteFixtures';

/**
 * The models the tests walk: each machine, the events it can be sent (one sample per event type the
 * machine handles, actor results included as `xstate.done.actor.*` / `xstate.error.actor.*` events,
 * delays as `xstate.after.*`), the inputs it starts from, and what of a snapshot counts as its state.
 */
export interface Model {
  name: string;
  machine: AnyStateMachine;
  inputs: unknown[];
  events: AnyEventObject[];
  /** what distinguishes two states for path generation */
  stateOf: (snapshot: AnyMachineSnapshot) => unknown;
}

/** A failure a later attempt may fix: the outbox keeps the submission. */
const HTTP_503 = new SubmissionError('HTTP error! status: 503', 503);

/** A failure no later attempt fixes: not kept, not retried. */
const HTTP_400 = new SubmissionError('HTTP error! status: 400', 400);

/** The status a sample `xstate.error.actor.submitRequest` event stands for. */
export function statusOf(event: AnyEventObject): number {
  return (event as { error?: SubmissionError }).error?.status ?? 0;
}

/**
 * The events of a form machine built on machines/formSubmission.ts (`id`: the invite or the privacy
 * request form): `payload` is what the form submits, `draftField` the field a `form.change` types into.
 */
function formSubmissionEvents(id: 'invite' | 'privacyRequest', payload: InvitePayload, draftField: string): AnyEventObject[] {
  return [
    { type: 'form.engage' },
    { type: 'form.submit', payload },
    { type: 'form.submit', payload, trapFilled: true },
    { type: 'xstate.done.actor.lookUpClientIp', output: MOCK_CLIENT_IP },
    { type: `xstate.after.ipLookupTimeout.${id}.clientIp.lookingUp` },
    { type: 'xstate.done.actor.submitRequest', output: undefined },
    { type: 'xstate.error.actor.submitRequest', error: HTTP_503 },
    { type: 'xstate.error.actor.submitRequest', error: HTTP_400 },
    { type: `xstate.after.submitTimeout.${id}.form.submitting.sending` },
    { type: 'xstate.done.actor.keepRequest', output: undefined },
    { type: `xstate.after.keepRequestTimeout.${id}.form.submitting.keeping` },
    { type: 'form.change', values: { [draftField]: 'x' } },
    { type: 'form.blur' },
    { type: `xstate.after.draftSaveDelay.${id}.draft.changed` },
  ];
}

export const inviteModel: Model = {
  name: 'invite',
  machine: inviteMachine,
  inputs: [undefined],
  events: formSubmissionEvents('invite', visitorPayload, 'notes'),
  // clientIp is part of what crosses the network, so two routes to a state with different IPs are two states
  stateOf: (s) => [s.value, s.context.clientIp],
};

const privacyRequestPayload = privacyRequestToInvitePayload({
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  requestType: ['Delete'],
});

export const privacyRequestModel: Model = {
  name: 'privacyRequest',
  machine: privacyRequestMachine,
  inputs: [undefined],
  events: formSubmissionEvents('privacyRequest', privacyRequestPayload, 'company'),
  // idle with an error on screen is a different state for the visitor than idle without one
  stateOf: (s) => [s.value, s.context.clientIp, s.context.error !== null],
};

const consentInputs: ConsentInput[] = [
  { stored: null, gpc: false },
  { stored: 'accepted', gpc: false },
  { stored: 'rejected', gpc: false },
  { stored: null, gpc: true },
];

export const consentModel: Model = {
  name: 'consent',
  machine: consentMachine,
  inputs: consentInputs,
  // analytics.capture is raised by the machine itself from consent.accept, as an invite submission does
  events: [{ type: 'consent.optOut' }, { type: 'consent.accept', analyticsEvent: { event: 'invite_request_submitted', properties: {} } }],
  stateOf: (s) => [s.value, s.context.stored, s.context.gpc],
};

export const optOutToastModel: Model = {
  name: 'optOutToast',
  machine: optOutToastMachine,
  inputs: [undefined],
  events: [{ type: 'toast.show' }, { type: 'toast.dismiss' }, { type: 'xstate.after.toastDuration.optOutToast.visible' }],
  stateOf: (s) => s.value,
};

/** The submission a form hands to the outbox in the outbox's paths. */
export const keptRequest: KeepRequest = {
  key: '00000000-0000-4000-8000-000000000001',
  body: {
    event: 'invite_request',
    data: {
      ...visitorPayload,
      submittedAt: new Date().toISOString(),
      clientIP: MOCK_CLIENT_IP,
      browserId: 'sonde_model_test',
      userAgent: 'model test',
      browserLanguage: 'en-US',
      timezone: 'UTC',
      screenResolution: '1280x720',
    },
  },
  retryAfterMs: null,
};

export const outboxModel: Model = {
  name: 'outbox',
  machine: outboxMachine,
  inputs: [undefined],
  events: [
    { type: 'xstate.done.actor.loadOutbox', output: [] },
    { type: 'outbox.keep', request: keptRequest },
    { type: 'outbox.online' },
    { type: 'xstate.after.untilNextAttempt.outbox.waiting' },
    { type: 'xstate.done.actor.sendEntry', output: undefined },
    { type: 'xstate.error.actor.sendEntry', error: HTTP_503 },
    { type: 'xstate.error.actor.sendEntry', error: HTTP_400 },
    { type: 'xstate.after.submitTimeout.outbox.sending' },
  ],
  // what is kept, and whether it was tried again already, is what the network and storage show (attempts
  // beyond the second are the same state, or the graph would be infinite)
  stateOf: (s) => [s.value, s.context.entries.map((entry: { key: string; attempts: number }) => [entry.key, entry.attempts > 1])],
};

/** The request the verification model's look-ups answer (11 CCR §7060). */
const verificationAnswer = (status: VerificationAnswer['status']): VerificationAnswer => ({
  status,
  requestTypes: ['Access/Know', 'Delete'],
  receivedAt: '2026-11-20T09:30:00.000Z',
});

/** Where a verification page is opened: the link (token in the fragment), a reload (token in the history state), no token, a malformed one. */
const verifyInputs: VerifyInput[] = [
  { hash: `#token=${SAMPLE_TOKEN}`, state: null },
  { hash: '', state: { verificationToken: SAMPLE_TOKEN } },
  { hash: '', state: null },
  { hash: '#token=not-a-token', state: null },
];

export const verifyModel: Model = {
  name: 'verify',
  machine: verifyMachine,
  inputs: verifyInputs,
  events: [
    { type: 'xstate.done.actor.lookUp', output: verificationAnswer('unverified') },
    { type: 'xstate.done.actor.lookUp', output: verificationAnswer('verified') },
    { type: 'xstate.error.actor.lookUp', error: new VerificationError('HTTP error! status: 404', 404) },
    { type: 'xstate.error.actor.lookUp', error: new VerificationError('HTTP error! status: 503', 503) },
    { type: 'xstate.after.callTimeout.verify.lookingUp' },
    { type: 'verify.retry' },
    { type: 'verify.confirm' },
    { type: 'xstate.done.actor.confirm', output: verificationAnswer('confirmed') },
    { type: 'xstate.done.actor.confirm', output: verificationAnswer('verified') },
    { type: 'xstate.error.actor.confirm', error: new VerificationError('HTTP error! status: 404', 404) },
    { type: 'xstate.error.actor.confirm', error: new VerificationError('Failed to fetch', null) },
    { type: 'xstate.after.callTimeout.verify.confirming' },
  ],
  // an error on screen, or the request shown, make two states the visitor tells apart
  stateOf: (s) => [s.value, s.context.error !== null, s.context.request !== null],
};

/**
 * The browser's refusal of a passkey ceremony when the member closes its dialog, as @simplewebauthn/browser
 * throws it: an Error named after the browser's DOMException (`NotAllowedError`).
 */
const CEREMONY_CANCELLED = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });

/** A team call that got no answer (offline). */
const TEAM_OFFLINE_ERROR = new TeamApiError('The server could not be reached', null);

export const teamSessionModel: Model = {
  name: 'teamSession',
  machine: teamSessionMachine,
  inputs: [undefined],
  events: [
    { type: 'xstate.done.actor.checkSession', output: TEAM_MEMBER },
    { type: 'xstate.done.actor.checkSession', output: null },
    { type: 'xstate.error.actor.checkSession', error: new TeamApiError('The server answered 503', 503) },
    { type: 'xstate.error.actor.checkSession', error: TEAM_OFFLINE_ERROR },
    { type: 'session.signIn' },
    { type: 'xstate.done.actor.signInWithPasskey', output: TEAM_MEMBER },
    { type: 'xstate.error.actor.signInWithPasskey', error: CEREMONY_CANCELLED },
    { type: 'xstate.error.actor.signInWithPasskey', error: new TeamApiError('Sign-in failed', 401) },
    { type: 'xstate.error.actor.signInWithPasskey', error: new TeamApiError('Too many attempts', 429) },
    { type: 'session.signOut' },
    { type: 'xstate.done.actor.endSession', output: undefined },
    { type: 'xstate.error.actor.endSession', error: new TeamApiError('Sign in first', 401) },
    { type: 'xstate.error.actor.endSession', error: TEAM_OFFLINE_ERROR },
    { type: 'session.ended' },
    { type: 'session.enrolled', member: TEAM_MEMBER },
  ],
  // what the sign-in screen or the header says is part of the state the member sees
  stateOf: (s) => [s.value, s.context.message],
};

/** Where an enrollment page is opened: its link, an address without a token, a link cut short. */
const teamEnrollInputs: TeamEnrollInput[] = [{ token: ENROLL_TOKEN }, { token: null }];

export const teamEnrollModel: Model = {
  name: 'teamEnroll',
  machine: teamEnrollMachine,
  inputs: teamEnrollInputs,
  events: [
    { type: 'enroll.register' },
    { type: 'xstate.done.actor.registerPasskey', output: TEAM_MEMBER },
    { type: 'xstate.error.actor.registerPasskey', error: new TeamApiError('This enrollment link was used, expired or revoked', 410) },
    { type: 'xstate.error.actor.registerPasskey', error: CEREMONY_CANCELLED },
    { type: 'xstate.error.actor.registerPasskey', error: new TeamApiError('Too many attempts', 429) },
  ],
  stateOf: (s) => [s.value, s.context.error],
};

/** The team's calls failing: no answer, a 5xx, the session ended (401), the chart's refusal (409). */
const TEAM_503 = new TeamApiError('The server answered 503', 503);
const TEAM_401 = new TeamApiError('No session', 401);
const TEAM_409 = new TeamApiError('Nothing changed', 409, ['request 00000000-0000-4000-8000-000000000001 is waitlisted: waitlist is possible only when it is received']);

/** When another member declined the decided request, in the model's 409: today at 14:02 local time, which the console shows as a time of day. */
export const CHANGED_AT = new Date(new Date().setHours(14, 2, 0, 0)).toISOString();

/** A decision refused because another member declined the request since it was seen (409 with `changed`). */
const TEAM_409_CHANGED = new TeamApiError(
  'Nothing changed: request 00000000-0000-4000-8000-000000000001 is declined, not received as seen',
  409,
  [`request 00000000-0000-4000-8000-000000000001 is declined, not received as seen: declined by Kim Lee at ${CHANGED_AT}`],
  [{ id: '00000000-0000-4000-8000-000000000001', seen: 'received', state: 'declined', action: 'declined', by: 'Kim Lee', at: CHANGED_AT }],
);

/** The queue's two pages as the mocked server answers them (mocks/teamHandlers.ts): four requests and a cursor, then two. */
const QUEUE_FIRST_PAGE = queuePageOf(new URLSearchParams());
const QUEUE_LAST_PAGE = queuePageOf(new URLSearchParams('after=page-4'));

export const teamQueueModel: Model = {
  name: 'teamQueue',
  machine: teamQueueMachine,
  inputs: [{ filters: {} }],
  events: [
    { type: 'xstate.done.actor.loadQueue', output: { page: QUEUE_FIRST_PAGE, cohorts: TEAM_COHORTS } },
    { type: 'xstate.error.actor.loadQueue', error: TEAM_503 },
    { type: 'xstate.error.actor.loadQueue', error: TEAM_401 },
    { type: 'queue.filter', filters: { kind: 'invite' } },
    { type: 'queue.search', q: 'a' },
    { type: 'xstate.after.searchDebounce.teamQueue.debouncing' },
    { type: 'queue.loadMore' },
    { type: 'xstate.done.actor.loadMore', output: QUEUE_LAST_PAGE },
    { type: 'xstate.error.actor.loadMore', error: TEAM_OFFLINE_ERROR },
    { type: 'xstate.error.actor.loadMore', error: TEAM_401 },
    { type: 'queue.retry' },
    { type: 'queue.reload' },
    { type: 'queue.toggle', id: TEAM_REQUESTS[0]!.id },
    { type: 'queue.selectAll' },
    { type: 'queue.clearSelection' },
  ],
  // what the member tells apart: the state, the rows shown, a selection or none, more to load or not, an error shown or not
  stateOf: (s) => [s.value, s.context.requests.length, s.context.selected.length > 0, s.context.next !== null, s.context.error !== null],
};

/** The request the decision model decides on: an invite request received (mocks/teamHandlers.ts). */
export const DECIDED_REQUEST = TEAM_REQUESTS[0]!;

export const teamDecisionModel: Model = {
  name: 'teamDecision',
  machine: teamDecisionMachine,
  inputs: [undefined],
  events: [
    { type: 'decision.start', targets: [{ request: DECIDED_REQUEST, requestTypes: [] }], draft: { decision: 'waitlist' }, at: '2026-11-26T12:00:00.000Z' },
    { type: 'xstate.done.actor.previewMails', output: previewOf({ decision: 'waitlist', ids: [DECIDED_REQUEST.id] }) },
    { type: 'xstate.error.actor.previewMails', error: TEAM_409 },
    { type: 'xstate.error.actor.previewMails', error: TEAM_503 },
    { type: 'xstate.error.actor.previewMails', error: TEAM_401 },
    { type: 'decision.confirm' },
    { type: 'decision.cancel' },
    { type: 'decision.retry' },
    { type: 'xstate.done.actor.submitDecision', output: undefined },
    { type: 'xstate.error.actor.submitDecision', error: TEAM_409 },
    { type: 'xstate.error.actor.submitDecision', error: TEAM_409_CHANGED },
    { type: 'xstate.error.actor.submitDecision', error: TEAM_OFFLINE_ERROR },
    { type: 'xstate.error.actor.submitDecision', error: TEAM_401 },
  ],
  // the mails shown, an error, refusals or another member's change shown, are what the member tells apart in a state
  stateOf: (s) => [s.value, s.context.mails !== null, s.context.error !== null, s.context.refusals.length > 0, s.context.changed.length > 0],
};

export const models: Model[] = [inviteModel, privacyRequestModel, consentModel, optOutToastModel, outboxModel, verifyModel, teamSessionModel, teamEnrollModel, teamQueueModel, teamDecisionModel];

/** One generated test path: where it starts and the steps (event, then the state it leads to). */
export interface ModelPath {
  input: unknown;
  /** the state the path starts from (after xstate.init) */
  initial: AnyMachineSnapshot;
  steps: Array<{ event: AnyEventObject; state: AnyMachineSnapshot }>;
  /** e.g. `form.engage → done: lookUpClientIp → form.submit` */
  title: string;
}

function label(event: AnyEventObject): string {
  const status = statusOf(event);
  const trap = (event as { trapFilled?: boolean }).trapFilled ? ' (honeypot filled)' : '';
  const answered = (event as { output?: { status?: unknown } }).output?.status;
  const changed = (event as { error?: { changed?: unknown[] } }).error?.changed?.length ? ' (changed meanwhile)' : '';
  return `${event.type}${status ? ` ${status}` : ''}${changed}${typeof answered === 'string' ? ` (${answered})` : ''}${trap}`
    .replace(/^xstate\.done\.actor\./, 'done: ')
    .replace(/^xstate\.error\.actor\./, 'error: ')
    .replace(/^xstate\.after\.([^.]+)\..*$/, 'after $1');
}

/**
 * Test paths generated from the machine itself: the shortest path to every edge of its state graph.
 * A node of the traversal is (previous state, event, state), so that self-loops and targetless
 * transitions, which shortest paths to *states* would skip, get a path of their own. Only events the
 * state can take (`snapshot.can`) are tried, so no step is a no-op.
 */
export function generatePaths(model: Model): ModelPath[] {
  return model.inputs.flatMap((input) => {
    const paths = getShortestPaths(model.machine, {
      input,
      events: model.events,
      filterEvents: (state, event) => state.can(event),
      serializeState: (state, event, previous) =>
        JSON.stringify([previous ? model.stateOf(previous) : null, event ? label(event) : null, model.stateOf(state)]),
    }).map((path) => {
      const [init, ...steps] = path.steps; // the first step is xstate.init
      return { input, initial: init!.state, steps, title: steps.map((step) => label(step.event)).join(' → ') };
    });
    const walks = withoutPrefixes(paths.filter((path) => path.steps.length > 0));
    // An input whose first state takes no event (a final state reached at once) is still a path: the arrival.
    return walks.length > 0 ? walks : paths.map((path) => ({ ...path, title: `arrival in ${JSON.stringify(path.initial.value)}` }));
  });
}

/**
 * The paths that are no prefix of another: shortest paths form a tree, and a path whose events begin
 * another's is walked by that one, step for step, with the same view checked after each step (the machine
 * is deterministic), so dropping it loses no transition and no assertion. Events are the model's own
 * objects (`model.events`), compared by identity.
 */
function withoutPrefixes(paths: ModelPath[]): ModelPath[] {
  const startsWith = (longer: ModelPath, shorter: ModelPath) =>
    longer.steps.length > shorter.steps.length && shorter.steps.every((step, i) => longer.steps[i]!.event === step.event);
  return paths.filter((path) => !paths.some((other) => startsWith(other, path)));
}
