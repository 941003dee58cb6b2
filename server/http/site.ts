import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { HOST_CONFIG_FILES, teamPageHeaders } from './securityHeaders.ts';

/** Hashed build output never changes under one name: cached for a year. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Pages and unhashed files are revalidated on every use, so a deploy shows at once. */
const PAGE_CACHE = 'no-cache';
/** The team console's page (scripts/build.mjs): its sign-in screen, from which its own app routes. */
const TEAM_PAGE = '/team.html';
/** The compressed copies scripts/build.mjs writes beside a file, which serveStatic sends to a client that accepts them. */
const COMPRESSED_SIBLINGS = ['.br', '.gz'];
/** Whether a path names one of those copies. */
const isCompressedCopy = (path: string): boolean => COMPRESSED_SIBLINGS.some((extension) => path.endsWith(extension));
/** The console's paths: `/team`, and every path under it without a file extension. */
const TEAM_PATHS = ['/team', '/team/*'];

/**
 * Serves the prerendered site in `distDir` (scripts/build.mjs) as a static host would:
 * - `/privacy` → `privacy.html` (clean URLs), `/` → `index.html`;
 * - `/privacy/` → 301 to `/privacy` (one address per page), the query kept, as a relative `Location`:
 *   the `Host` header never writes an address a (cached) redirect sends visitors to;
 * - `/team` and every extension-less path under `/team/` → `team.html` with status 200 (the team console
 *   routes in the browser), with `X-Robots-Tag: noindex` besides the page's headers;
 * - any other path → `404.html` with status 404, including a missing `/assets/…` file and a `.br`/`.gz`
 *   copy asked for by its own name;
 * - `Cache-Control`: immutable for a file found under `/assets/`, `no-cache` for pages, other files and
 *   the not-found page;
 * - the security headers (server/http/securityHeaders.ts) on every HTML response;
 * - the precompressed `.br`/`.gz` siblings the build wrote, when the client accepts them, and
 *   `Vary: Accept-Encoding` on every answer of a file that has them, whichever copy it sends (RFC 9110
 *   §12.5.5), so that a shared cache never gives a client a copy in an encoding it did not accept.
 * Mounted at `/` after every API route: it answers every path and method nothing before it answered,
 * with the not-found page at the end instead of the app's `notFound` (which Hono calls for the
 * top-level app only).
 * @param options - `distDir`: the build's directory; `htmlHeaders`: the security headers it was built with
 * @returns the site as a Hono sub-app
 */
export function siteRoutes(options: { distDir: string; htmlHeaders: Record<string, string> }): Hono {
  const { distDir, htmlHeaders } = options;
  const teamHeaders = teamPageHeaders(htmlHeaders);
  /** whether a file has compressed siblings, by its path: the build's files do not change under a running server */
  const compressed = new Map<string, boolean>();
  const hasCompressedSiblings = (file: string): boolean => {
    let known = compressed.get(file);
    if (known === undefined) compressed.set(file, (known = COMPRESSED_SIBLINGS.some((extension) => existsSync(`${file}${extension}`))));
    return known;
  };
  /**
   * `file`: the path on disk that answers (a `.br`/`.gz` sibling when precompressed); `found`: false for
   * the not-found page, which is never cached as the asset it stands in for (a name an older or newer
   * deploy has must not stay a 404 for a year)
   */
  const setPageHeaders = (c: Context, file: string, found = true) => {
    c.header('Cache-Control', found && c.req.path.startsWith('/assets/') ? ASSET_CACHE : PAGE_CACHE);
    // a compressed copy sent has it already (serveStatic); the plain copy of a file that has them needs it too
    if (found && !isCompressedCopy(file) && hasCompressedSiblings(file)) c.header('Vary', 'Accept-Encoding', { append: true });
    c.header('X-Content-Type-Options', 'nosniff');
    // the file the copy was compressed from (`team.html` for `team.html.br`)
    const original = isCompressedCopy(file) ? file.slice(0, file.lastIndexOf('.')) : file;
    if (original.endsWith('.html')) {
      // the console's page signs in with a passkey, and no search engine keeps it, whichever address it was reached by
      const headers = original.endsWith('/team.html') ? teamHeaders : htmlHeaders;
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
    }
  };
  const hidden = new Set(HOST_CONFIG_FILES.map((file) => `/${file}`));
  const notFoundPage = join(distDir, '404.html');

  const site = new Hono();
  site.on(['GET', 'HEAD'], '*', async (c, next) => {
    const { pathname, search } = new URL(c.req.url);
    if (pathname === '/' || !pathname.endsWith('/')) return next();
    // One leading slash only: `//evil.example/` must not become the protocol-relative `//evil.example`.
    const target = `/${pathname.replace(/^[/\\]+/, '').replace(/\/+$/, '')}`;
    return c.body(null, 301, { Location: `${target}${search}` });
  });
  const files: MiddlewareHandler = serveStatic({
    root: distDir,
    precompressed: true,
    rewriteRequestPath: (path) => (path === '/' || extname(path) !== '' ? path : `${path}.html`),
    onFound: (path, c) => setPageHeaders(c, path),
  });
  const teamPage: MiddlewareHandler = serveStatic({
    root: distDir,
    precompressed: true,
    rewriteRequestPath: () => TEAM_PAGE,
    onFound: (path, c) => setPageHeaders(c, path),
  });
  site.on(['GET', 'HEAD'], TEAM_PATHS, async (c, next) => (extname(c.req.path) === '' ? teamPage(c, next) : next()));
  site.on(['GET', 'HEAD'], '*', async (c, next) => {
    // a host's configuration, and a compressed copy requested by its own name (an encoding of a file, sent
    // only in its place): the not-found page
    if (hidden.has(c.req.path) || isCompressedCopy(c.req.path)) return next();
    return files(c, next);
  });
  site.all('*', async (c) => {
    setPageHeaders(c, notFoundPage, false);
    c.header('Content-Type', 'text/html; charset=utf-8');
    if (c.req.method === 'HEAD') return c.body(null, 404);
    return c.body(await readFile(notFoundPage), 404);
  });
  return site;
}
