import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { MetricsRecorder } from '../metrics.ts';

/**
 * Counts every answer of the app and times it (server/metrics.ts `sonde_http_requests_total`,
 * `sonde_http_request_duration_seconds`), by method, status and the route's pattern: the path of the
 * handler that answered (`/api/team/requests/:id`, `*` for the site's pages), so that no path a visitor
 * makes up becomes a series of its own. Placed first, it times the whole answer.
 */
export function countRequests(metrics: Pick<MetricsRecorder, 'httpRequest'>): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // after next(), the route index is the handler's that answered (hono/route `routePath`)
      metrics.httpRequest({ method: c.req.method, route: routePath(c), status: c.res.status }, (performance.now() - started) / 1000);
    }
  };
}
