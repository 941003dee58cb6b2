import { http, HttpResponse } from 'msw';
import { SUBMIT_ENDPOINT } from '@/config/site';
import { ipLookupUrl, MOCK_CLIENT_IP } from '../../mocks/handlers';
import { server } from '../../mocks/node';

/**
 * The IP lookup and the submission endpoint under a test's control (DESIGN.md §3): each request is held
 * until the path's step releases it, so that `lookingUp` and `sending` can be seen.
 */
export function heldNetwork() {
  const lookups: Array<() => void> = [];
  const posts: Array<(status: number) => void> = [];
  const bodies: Array<{ event: string; data: Record<string, unknown> }> = [];
  server.use(
    http.get(ipLookupUrl, () => new Promise<Response>((resolve) => lookups.push(() => resolve(HttpResponse.json({ ip: MOCK_CLIENT_IP }))))),
    http.post(SUBMIT_ENDPOINT, async ({ request }) => {
      bodies.push((await request.json()) as (typeof bodies)[number]);
      return new Promise<Response>((resolve) => posts.push((status) => resolve(new HttpResponse(null, { status }))));
    }),
  );
  return {
    /** how many IP lookups were requested */
    lookupCount: () => lookups.length,
    /** bodies POSTed so far */
    bodies,
    /** answers the pending IP lookup with MOCK_CLIENT_IP */
    answerLookup: () => lookups.at(-1)!(),
    /** answers the latest pending POST with this status */
    answerPost: (status: number) => posts.at(-1)!(status),
  };
}
