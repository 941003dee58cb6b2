import type { ClientMetadata, InvitePayload, SubmissionBody } from '#shared/submission';
import { SUBMIT_ENDPOINT } from '@/config/site';

/** Builds the body of spec §7.1 from a payload and its metadata. */
export function buildSubmissionBody(payload: InvitePayload, metadata: ClientMetadata): SubmissionBody {
  return { event: 'invite_request', data: { ...payload, ...metadata } };
}

/**
 * POSTs a submission to `VITE_SUBMIT_ENDPOINT` as JSON (spec §7.1). Both forms use it.
 * Only the status is checked; the response body is not read.
 * @throws Error `HTTP error! status: {code}` for a non-success status (spec §8);
 *   the fetch error itself (e.g. `Failed to fetch`) when the request cannot be made.
 */
export async function postSubmission(body: SubmissionBody, signal?: AbortSignal): Promise<void> {
  const response = await fetch(SUBMIT_ENDPOINT, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
}

/** Spec §8: the message of a submission failure that carries none of its own. */
export const UNKNOWN_ERROR_MESSAGE = 'Unknown error occurred';

/**
 * The message of spec §8 for a failed submission: the error's own message, else `fallback`.
 * @param error - whatever the submission threw
 * @param fallback - 'Unknown error occurred' by default; the privacy form passes its own (spec §8)
 */
export function submissionErrorMessage(error: unknown, fallback: string = UNKNOWN_ERROR_MESSAGE): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
