import type { ChangedMeanwhile } from '#shared/team';
import { TeamApiError } from '@/services/teamApi';

// What the console's machines (machines/team*Machine.ts) share about the team's calls: how a failure is
// told to the member, which failure ends the session, and the transition each of their calls takes then.

/** Said when a call got no answer: offline, or the server unreachable or too slow. */
export const TEAM_OFFLINE_ERROR = 'The server could not be reached. Check your connection and try again.';

/** Said when a call answered 401: the session ended. */
const TEAM_SESSION_ENDED_ERROR = 'Your session has ended. Sign in again to go on.';

/**
 * A failed call in the member's words: the session ended (401), no answer at all, a problem on the
 * server's side (5xx, with its status), or the server's own `error` (a 4xx's explanation).
 */
export function problemText(error: unknown): string {
  if (!(error instanceof TeamApiError) || error.status === null) return TEAM_OFFLINE_ERROR;
  if (error.isSessionEnded) return TEAM_SESSION_ENDED_ERROR;
  if (error.status >= 500) return `The server had a problem (error ${error.status}). Nothing was lost: try again in a moment.`;
  return error.message;
}

/** Whether a call answered 401: the session ended (TeamApiError.isSessionEnded). */
export function sessionEnded(error: unknown): boolean {
  return error instanceof TeamApiError && error.isSessionEnded;
}

/** Whether a call answered 404: no such request. */
export function notFound(error: unknown): boolean {
  return error instanceof TeamApiError && error.status === 404;
}

/** Whether the chart refused a decision or step (409, with its refusals): nothing changed. */
export function refused(error: unknown): boolean {
  return error instanceof TeamApiError && error.status === 409;
}

/** Whether a decision or step was refused (409) because a request changed since the member saw it. */
export function changedMeanwhile(error: unknown): boolean {
  return error instanceof TeamApiError && error.status === 409 && error.changed.length > 0;
}

/** What changed each request since the member saw it (a 409's `changed`): the state now, who and when. */
export function changesOf(error: unknown): ChangedMeanwhile[] {
  return error instanceof TeamApiError ? [...error.changed] : [];
}

/** The refusals of a 409, one line per request; the answer's `error` when it lists none. */
export function refusalsOf(error: unknown): string[] {
  if (!(error instanceof TeamApiError)) return [];
  return error.refusals.length > 0 ? [...error.refusals] : [error.message];
}

/** What an invoked call's `onError` hands a transition's params: the call's rejection. */
export type CallFailure = { event: { error: unknown } };

/**
 * The action a console machine takes on a failed call, to say why: its `storeError` action (named by the
 * machine's `setup`, which words it with {@link problemText}), given the call's rejection.
 */
export const storeCallError = { type: 'storeError' as const, params: ({ event }: CallFailure) => ({ error: event.error }) };

/**
 * The first `onError` transition of each call a console machine invokes: the call answered 401 (the
 * machine's `sessionEnded` guard), so its message is stored (`storeError`, TEAM_SESSION_ENDED_ERROR),
 * the session is told (`endSession`, provided by the view) and the machine goes to its `failed` state.
 * The machine's `setup` names the guard and both actions. `overrides` sets another target (a state id
 * from a nested state) or another description, as a plain `description: '…'` property so that the
 * production build leaves it out as it does every description (vite.config.ts).
 */
export function sessionEndedTransition(overrides: { target?: string; description?: string } = {}) {
  return {
    guard: { type: 'sessionEnded' as const, params: ({ event }: CallFailure) => ({ error: event.error }) },
    target: 'failed',
    actions: [storeCallError, 'endSession' as const],
    description: '401: the session ended.',
    ...overrides,
  };
}
