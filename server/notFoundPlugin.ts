import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * `vite preview` (`npm start`) answers like a static host serving the prerendered build
 * (scripts/build.mjs writes `dist/<route>.html` and `dist/404.html`), instead of Vite's single-page
 * fallback, which answers every unknown path with the home page's HTML:
 * - `/privacy/` → 301 to `/privacy` (one address per page);
 * - a page path with no prerendered page → `dist/404.html` with status 404;
 * - a missing file (`/assets/gone.js`) → 404.
 */
export function notFoundPage(): Plugin {
  return {
    name: 'sonde-not-found-page',
    configurePreviewServer(server) {
      const outDir = resolve(server.config.root, server.config.build.outDir);
      server.middlewares.use(async (req, res, next) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        const [rawPath = '/', query] = (req.url ?? '/').split('?');
        const path = decodeURIComponent(rawPath);
        const notFound = join(outDir, '404.html');
        if (path === '/' || !existsSync(notFound)) return next();
        if (path.endsWith('/')) {
          res.writeHead(301, { Location: `${rawPath.replace(/\/+$/, '')}${query ? `?${query}` : ''}` });
          return res.end();
        }
        if (extname(path) !== '') {
          if (existsSync(join(outDir, path))) return next();
          res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
          return res.end('Not found');
        }
        if (existsSync(join(outDir, `${path}.html`))) return next();
        res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(req.method === 'HEAD' ? undefined : await readFile(notFound));
      });
    },
  };
}
