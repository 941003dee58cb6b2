import { Hono } from 'hono';
import { withDeadline } from '../db/deadline.ts';
import { HEALTH_CHECK_TIMEOUT_MS } from '../limits.ts';
import type { AppOptions } from './options.ts';

/**
 * `GET /api/health`, for a load balancer's health check, mounted at `/api/health`: 200
 * `{ status: 'ok', database: 'ok' }`, or 503 `{ status: 'error', database: 'unreachable' }` (logged at
 * warn) when the database does not answer `select 1` within `HEALTH_CHECK_TIMEOUT_MS` (server/limits.ts).
 * @param options - `database`, `logger`
 * @returns the route as a Hono sub-app, its path `/`
 */
export function healthRoutes({ database, logger }: Pick<AppOptions, 'database' | 'logger'>): Hono {
  return new Hono().get('/', async (c) => {
    try {
      await withDeadline(database.ping(), HEALTH_CHECK_TIMEOUT_MS);
      return c.json({ status: 'ok', database: 'ok' });
    } catch (error) {
      logger.warn({ err: error }, 'health check: database unreachable');
      return c.json({ status: 'error', database: 'unreachable' }, 503);
    }
  });
}
