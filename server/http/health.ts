import { Hono } from 'hono';
import { withDeadline } from '../db/deadline.ts';
import { HEALTH_CHECK_TIMEOUT_MS } from '../limits.ts';
import { onlyMethods } from './middleware.ts';
import type { AppOptions } from './options.ts';

/**
 * `GET /api/health`, for a load balancer's health check, mounted at `/api/health`: 200
 * `{ status: 'ok', database: 'ok' }`, or 503 `{ status: 'error', database: 'unreachable' }` (logged at
 * warn) when the database does not answer `select 1` within `HEALTH_CHECK_TIMEOUT_MS` (server/limits.ts);
 * any other method than GET and HEAD: 405 with `Allow: GET, HEAD`.
 * @param options - `database`, `logger`
 * @returns the route as a Hono sub-app, its path `/`
 */
export function healthRoutes({ database, logger }: Pick<AppOptions, 'database' | 'logger'>): Hono {
  const health = new Hono();
  health.get('/', async (c) => {
    try {
      await withDeadline(database.ping(), HEALTH_CHECK_TIMEOUT_MS);
      return c.json({ status: 'ok', database: 'ok' });
    } catch (error) {
      logger.warn({ err: error }, 'health check: database unreachable');
      return c.json({ status: 'error', database: 'unreachable' }, 503);
    }
  });
  health.all('/', onlyMethods('GET', 'HEAD'));
  return health;
}
