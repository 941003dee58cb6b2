import { http, HttpResponse } from 'msw';
import { IP_LOOKUP_URL, SUBMIT_ENDPOINT } from '@/config/site';
import { checkSubmissionBody } from '../server/submissionSchema';

/** The IP the mocked lookup service answers (TEST-NET-3, never a real visitor). */
export const MOCK_CLIENT_IP = '203.0.113.7';

/** The lookup URL without its query, as MSW matches paths (spec §7.2). */
export const ipLookupUrl = IP_LOOKUP_URL.split('?')[0] ?? IP_LOOKUP_URL;

/**
 * Success paths (DESIGN.md §2). The submission endpoint checks the body with the Sonde server's own
 * schema (server/submissionSchema.ts) and answers as the server does, so a test whose form sends a
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
  http.get(ipLookupUrl, ({ request }) => {
    // spec §7.2: JSON output is asked for
    if (new URL(request.url).searchParams.get('format') !== 'json') return new HttpResponse(null, { status: 400 });
    return HttpResponse.json({ ip: MOCK_CLIENT_IP });
  }),
];
