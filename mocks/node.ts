import { setupServer } from 'msw/node';
import { handlers } from './handlers';

/** MSW server for Vitest (tests/setup.ts); failures are per-test `server.use(...)` overrides. */
export const server = setupServer(...handlers);
