import { http, HttpResponse } from 'msw';
import { IP_LOOKUP_URL, SUBMIT_ENDPOINT } from '@/config/site';
import { VERIFICATION_ENDPOINTS } from '@/services/verification';
import { UNKNOWN_LINK_ERROR, VERIFICATION_TOKEN_PATTERN, type VerificationAnswer } from '#shared/verification';
import { checkSubmissionBody } from '../server/http/submissionSchema';

/** The IP the mocked lookup service answers (TEST-NET-3, never a real visitor). */
export const MOCK_CLIENT_IP = '203.0.113.7';

/** The lookup URL without its query, as MSW matches paths (spec §7.2). */
export const ipLookupUrl = IP_LOOKUP_URL.split('?')[0] ?? IP_LOOKUP_URL;

/** When the mocked verification link's request was received (11 CCR §7060). */
const MOCK_RECEIVED_AT = '2026-11-20T09:30:00.000Z';

/** What the mocked verification calls answer: 404 for a malformed token, as the server does. */
async function verificationAnswer(request: Request, status: VerificationAnswer['status']): Promise<Response> {
  const { token } = (await request.json()) as { token?: unknown };
  if (typeof token !== 'string' || !VERIFICATION_TOKEN_PATTERN.test(token)) return HttpResponse.json({ error: UNKNOWN_LINK_ERROR }, { status: 404 });
  const answer: VerificationAnswer = { status, requestTypes: ['Access/Know', 'Delete'], receivedAt: MOCK_RECEIVED_AT };
  return HttpResponse.json(answer);
}

/**
 * Success paths (DESIGN.md §2). The submission endpoint checks the body with the Sonde server's own
 * schema (server/http/submissionSchema.ts) and answers as the server does, so a test whose form sends a
 * malformed body gets the server's 400, not a silent 201.
 */
export const handlers = [
  http.post(SUBMIT_ENDPOINT, async ({ request }) => {
    if (request.headers.get('content-type') !== 'application/json') {
      return HttpResponse.json({ error: 'Content-Type must be application/json' }, { status: 415 });
    }
    const body: unknown = await request.json();
    const checked = checkSubmissionBody(body);
    if (!checked.ok) return HttpResponse.json({ error: checked.problem }, { status: 400 });
    return HttpResponse.json({ ok: true, id: crypto.randomUUID() }, { status: 201 });
  }),
  // A well-formed token is a request to delete and know, received on MOCK_RECEIVED_AT and not yet confirmed.
  http.post(VERIFICATION_ENDPOINTS.lookUp, async ({ request }) => verificationAnswer(request, 'unverified')),
  http.post(VERIFICATION_ENDPOINTS.confirm, async ({ request }) => verificationAnswer(request, 'confirmed')),
  http.get(ipLookupUrl, ({ request }) => {
    // spec §7.2: JSON output is asked for
    if (new URL(request.url).searchParams.get('format') !== 'json') return new HttpResponse(null, { status: 400 });
    return HttpResponse.json({ ip: MOCK_CLIENT_IP });
  }),
];
