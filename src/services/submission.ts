import type { ClientMetadata, InvitePayload, SubmissionBody } from '#shared/submission';
import { dequal } from 'dequal';
import { SUBMIT_ENDPOINT } from '@/config/site';

/** Builds the body of spec §7.1 from a payload and its metadata. */
export function buildSubmissionBody(payload: InvitePayload, metadata: ClientMetadata): SubmissionBody {
  return { event: 'invite_request', data: { ...payload, ...metadata } };
}

/** The metadata fields of spec §3 in a body's `data`: what is not the visitor's answers. */
const METADATA_FIELDS: ReadonlyArray<keyof ClientMetadata> = [
  'submittedAt',
  'clientIP',
  'browserId',
  'userAgent',
  'browserLanguage',
  'timezone',
  'screenResolution',
];

/**
 * True when `body` carries exactly the answers of `payload` (its metadata aside): a privacy visitor
 * retrying an unchanged request, whose earlier body and idempotency key are then reused.
 */
export function carriesPayload(body: SubmissionBody, payload: InvitePayload): boolean {
  const answers: Record<string, unknown> = { ...body.data };
  for (const field of METADATA_FIELDS) delete answers[field];
  return dequal(answers, { ...payload });
}

/**
 * A submission that did not reach the server. `message` is the text of spec §8 ('HTTP error! status:
 * {code}', or the fetch error's own message such as 'Failed to fetch').
 */
export class SubmissionError extends Error {
  /** the status answered, or null when no answer came (network error, offline) */
  readonly status: number | null;
  /** true when sending it again may succeed: no answer, 408, 429 or a 5xx; false for any other 4xx */
  readonly retryable: boolean;
  /** the server's `Retry-After`, in ms; null when absent or unreadable */
  readonly retryAfterMs: number | null;

  constructor(message: string, status: number | null, retryAfterMs: number | null = null) {
    super(message);
    this.name = 'SubmissionError';
    this.status = status;
    this.retryable = status === null || status === 408 || status === 429 || status >= 500;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * Reads an HTTP `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
 * @returns the wait in ms (0 for a date in the past), or null when the value is neither
 */
function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** A new idempotency key for a submission: sent as `Idempotency-Key`, the same on every retry. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * POSTs a submission to `VITE_SUBMIT_ENDPOINT` as JSON (spec §7.1). Both forms and the outbox use it.
 * The `Idempotency-Key` header lets the server store it once however often it is sent; `keepalive`
 * lets the request finish when the visitor navigates away (to /thank-you). Only the status is checked;
 * the response body is not read.
 * @param body - the body of spec §7.1 (at most 64 KB as JSON: the limit of keepalive requests)
 * @param idempotencyKey - the submission's key, unchanged on every retry
 * @param signal - aborts the request (the machine's time-out, or the visitor leaving the form)
 * @throws SubmissionError `HTTP error! status: {code}` for a non-success status (spec §8), with the
 *   `Retry-After` it carried; the fetch error's message (e.g. `Failed to fetch`) when no answer came;
 *   the abort error itself when `signal` aborted it
 */
export async function postSubmission(body: SubmissionBody, idempotencyKey: string, signal?: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await fetch(SUBMIT_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(body),
      keepalive: true,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    // the fetch error's own message, or none: the form then shows its own fallback (spec §8)
    throw new SubmissionError(submissionErrorMessage(error, ''), null);
  }
  if (!response.ok) {
    throw new SubmissionError(`HTTP error! status: ${response.status}`, response.status, parseRetryAfter(response.headers.get('Retry-After')));
  }
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
