import { VERIFICATION_CONFIRM_PATH, VERIFICATION_LOOKUP_PATH, type VerificationAnswer } from '#shared/verification';
import { SUBMIT_ENDPOINT } from '@/config/site';

export type { VerificationAnswer } from '#shared/verification';

/** `path` on the server of {@link SUBMIT_ENDPOINT}: its origin when that is an absolute URL, else this site's. */
function onSubmissionServer(path: string): string {
  return /^https?:\/\//.test(SUBMIT_ENDPOINT) ? new URL(path, SUBMIT_ENDPOINT).href : path;
}

/** The verification calls (11 CCR §7060), on the server the forms submit to. */
export const VERIFICATION_ENDPOINTS = {
  lookUp: onSubmissionServer(VERIFICATION_LOOKUP_PATH),
  confirm: onSubmissionServer(VERIFICATION_CONFIRM_PATH),
};

/** A verification call that did not succeed (11 CCR §7060). */
export class VerificationError extends Error {
  /** the status answered, or null when no answer came (network error, offline) */
  readonly status: number | null;

  constructor(message: string, status: number | null) {
    super(message);
    this.name = 'VerificationError';
    this.status = status;
  }

  /** 404: the link is unknown, expired, or its request was answered; trying again changes nothing */
  get isUnknownLink(): boolean {
    return this.status === 404;
  }
}

async function post(url: string, token: string, signal?: AbortSignal): Promise<VerificationAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'omit',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new VerificationError(error instanceof Error ? error.message : 'Failed to fetch', null);
  }
  if (!response.ok) throw new VerificationError(`HTTP error! status: ${response.status}`, response.status);
  return (await response.json()) as VerificationAnswer;
}

/**
 * Which privacy request `token` confirms (`POST /api/privacy-requests/verify/lookup`): changes nothing.
 * @returns the request's types, the date it was received, and `unverified` or `verified`
 * @throws VerificationError with status 404 for a link unknown, expired or of an answered request; with
 *   another status, or null when no answer came; the abort error when `signal` aborted it
 */
export function lookUpVerification(token: string, signal?: AbortSignal): Promise<VerificationAnswer> {
  return post(VERIFICATION_ENDPOINTS.lookUp, token, signal);
}

/**
 * "Confirm it's me" (`POST /api/privacy-requests/verify`): records that the requester confirmed the request.
 * @returns the request, `confirmed` (now) or `verified` (it already was)
 * @throws as {@link lookUpVerification}
 */
export function confirmVerification(token: string, signal?: AbortSignal): Promise<VerificationAnswer> {
  return post(VERIFICATION_ENDPOINTS.confirm, token, signal);
}
