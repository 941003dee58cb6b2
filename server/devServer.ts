import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type { Plugin } from 'vite';
import { createApp } from './http/app.ts';
import { allowedOriginsOf, publicOriginOf, readConfig } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { createLogger } from './logger.ts';

/**
 * `npm run dev`: mounts the server's app (server/http/app.ts) for `/api/*` inside the Vite dev server, so
 * that development and production answer with one handler. Vite serves the pages; the API stores
 * into `DATABASE_URL`, else PGlite in `.data/pglite-dev` (not the production `.data/pglite`, which a
 * running `npm start` may hold: PGlite allows one process per directory). The database opens on the
 * first API request.
 */
export function sondeApi(): Plugin {
  return {
    name: 'sonde-api',
    apply: (_config, env) => env.command === 'serve' && !env.isPreview && !process.env.VITEST,
    configureServer(server) {
      const config = readConfig({ SONDE_PGLITE_DIR: resolve('.data/pglite-dev'), ...process.env });
      const logger = createLogger();
      let database: Promise<Database> | undefined;
      // The pages' origin is Vite's address (`vite --host 127.0.0.1`), not the server's PORT.
      const viteAddress = () => {
        const address = server.httpServer?.address();
        const port = typeof address === 'object' && address ? address.port : (server.config.server.port ?? 5173);
        const host = typeof server.config.server.host === 'string' ? server.config.server.host : 'localhost';
        return { config: { ...config, host }, port };
      };
      const viteOrigin = () => {
        const { config, port } = viteAddress();
        return publicOriginOf(config, port);
      };
      let listener: ReturnType<typeof getRequestListener> | undefined;
      server.httpServer?.once('close', () => {
        void database?.then((db) => db.close()).catch((err: unknown) => logger.error({ err }, 'closing the database failed'));
      });
      /** The server's app for one `/api/*` request, made on the first (the database opens then). */
      const answerApi = async (req: IncomingMessage, res: ServerResponse) => {
        if (!listener) {
          database ??= openDatabase(config.database);
          const app = createApp({
            database: await database,
            logger,
            rateLimitPerMinute: config.rateLimitPerMinute,
            trustProxy: config.trustProxy,
            trustedProxyHops: config.trustedProxyHops,
            publicOrigin: viteOrigin,
            allowedOrigins: () => {
              const { config, port } = viteAddress();
              return allowedOriginsOf(config, port);
            },
          });
          listener ??= getRequestListener(app.fetch);
        }
        await listener(req, res);
      };
      server.middlewares.use((req, res, next) => {
        if (!req.url?.startsWith('/api/')) return next();
        answerApi(req, res).catch(next);
      });
    },
  };
}
