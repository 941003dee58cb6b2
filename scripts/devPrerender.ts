import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

/** What `src/entry-server.tsx` exports that a page's HTML is made of (scripts/build.mjs uses the same). */
interface EntryServer {
  preloadAllPages(): Promise<void>;
  prerenderedRoutes: readonly string[];
  notFoundPath: string;
  render(url: string): string;
  headHtml(route: string): string;
}

/**
 * `npm run dev` answers an address with `?prerender` (e.g. `/terms?prerender`) with the page prerendered,
 * as the build does (scripts/build.mjs: the route's head in place of the template's `<title>`, its HTML
 * in `#root`, `/404` for any other path), so the browser hydrates it with React's development build,
 * which reports every hydration mismatch (tests/e2e/hydration.spec.ts). Without it the page is rendered
 * in the browser from scratch, as before. The modules are Vite's, so an edit is picked up at the next
 * request, and Fast Refresh updates the hydrated page in place.
 */
export function devPrerender(): Plugin {
  return {
    name: 'sonde:dev-prerender',
    apply: (_config, env) => env.command === 'serve' && !env.isPreview && !process.env.VITEST,
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const path = url.pathname;
        const wantsPage = req.method === 'GET' && url.searchParams.has('prerender') && (req.headers.accept ?? '').includes('text/html');
        if (!wantsPage || path.startsWith('/api/') || path.startsWith('/@') || /\.[a-z0-9]+$/i.test(path)) return next();
        try {
          const site = (await server.ssrLoadModule('/src/entry-server.tsx')) as EntryServer;
          await site.preloadAllPages();
          const route = site.prerenderedRoutes.includes(path) ? path : site.notFoundPath;
          const template = await readFile('index.html', 'utf8');
          const page = template
            .replace(/<title>[^<]*<\/title>/, () => site.headHtml(route))
            .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${route}">${site.render(route)}</div>`);
          res.statusCode = route === site.notFoundPath ? 404 : 200;
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(await server.transformIndexHtml(req.url ?? '/', page));
        } catch (error) {
          if (error instanceof Error) server.ssrFixStacktrace(error);
          next(error);
        }
      });
    },
  };
}
