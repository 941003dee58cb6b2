// `npm run build`: the client build, then every route of spec §2 prerendered to static HTML.
//   dist/index.html, dist/privacy.html, … dist/404.html (the not-found page)
//   dist/team.html: the team console's sign-in screen, from the console's own build (buildTeamClient)
//   dist/_headers, dist/vercel.json: the security headers for static hosts (server/http/securityHeaders.ts)
//   dist/sitemap.xml, robots.txt, llms.txt, llms-full.txt, .well-known/security.txt, site.webmanifest,
//   share.png (1200×630), icon-192.png, icon-512.png, apple-touch-icon.png
//   *.br, *.gz beside every text file, for the Sonde server and hosts that serve precompressed files
// Then the server and the command line, bundled for plain node (scripts/serverBundle.mjs):
//   build/server/server.mjs, cli.mjs (+ .map), and the migrator's SQL; outside dist/, which is published
// Usage: tsx scripts/build.mjs [--outDir dir] [--serverOutDir dir]   (tsx: it imports the server's TypeScript header definition)
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { build, loadEnv } from 'vite';
import { netlifyHeadersFile, securityHeaders, vercelConfig } from '../server/http/securityHeaders.ts';
import { ENABLED_BEFORE_HYDRATION } from '../src/config/beforeHydration.ts';
import { ICON_SIZES, renderIcon, renderShareImage } from './images.ts';
import { llmsFullText, mainOf } from './llmsFull.ts';
import { bundleServer, SERVER_BUILD_DIR } from './serverBundle.mjs';

/** The inline favicon's edge, px: a browser tab's 16 CSS px at a device pixel ratio of 2. */
const FAVICON_SIZE_PX = 32;
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.txt', '.json', '.xml', '.webmanifest']);
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `file` with `data`, and `file.br` and `file.gz` beside it when they are smaller (the copies a
 * stale compressed file would otherwise shadow are removed).
 * @param {string} file - the path to write
 * @param {Buffer | string} data - its content
 */
export async function writePrecompressed(file, data) {
  await writeFile(file, data);
  const bytes = Buffer.from(data);
  const br = await brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
  const gz = await gzipAsync(bytes, { level: 9 });
  if (br.length < bytes.length) await writeFile(`${file}.br`, br);
  else await rm(`${file}.br`, { force: true });
  if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
  else await rm(`${file}.gz`, { force: true });
}

/** Writes `file.br` and `file.gz` beside every compressible file of `dir`, when they are smaller. */
async function precompress(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = join(entry.parentPath ?? entry.path, entry.name);
    if (!entry.isFile() || !COMPRESSIBLE.has(extname(entry.name)) || entry.name === 'vercel.json') continue;
    await writePrecompressed(file, await readFile(file));
  }
}

/** The origin of an absolute URL, or null for a path on the site's own origin. */
function originOf(url) {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The security headers of the built pages: the inlined stylesheets and entry loaders allowed by their
 * hashes, and the origins the page calls (spec §7), as Vite baked them in from the environment and `.env` files.
 */
function headersFor(inlineStyles, inlineScripts, env) {
  const endpoint = env.VITE_SUBMIT_ENDPOINT || '/api/submissions';
  const connectOrigins = [
    originOf(endpoint),
    originOf(env.VITE_IP_LOOKUP_URL || 'https://api.ipify.org?format=json'),
    env.VITE_POSTHOG_KEY ? originOf(env.VITE_POSTHOG_HOST || 'https://us.i.posthog.com') : null,
  ].filter(Boolean);
  const hashOf = (text) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
  return { endpoint, headers: securityHeaders({ styleHashes: inlineStyles.map(hashOf), scriptHashes: inlineScripts.map(hashOf), connectOrigins }) };
}

/** The prerendered HTML file of a route, in the build: `/` → `index.html`, `/terms` → `terms.html`. */
export function htmlFileOf(route) {
  return route === '/' ? 'index.html' : `${route.slice(1)}.html`;
}

/**
 * Each route's page module (src/app/routes.tsx splits the site by page). src/hydrate.tsx imports
 * the route's page chunk before hydrating. The prerendered HTML does not `modulepreload` it: measured
 * with Lighthouse (mobile, simulated slow 4G) on /terms, the four extra early requests moved LCP's median
 * from 1.62 s to 1.76 s, while the page is already painted from the HTML.
 */
export const PAGE_MODULES = {
  '/': 'src/pages/Home.tsx',
  '/privacy': 'src/pages/Privacy.tsx',
  '/privacy-request': 'src/pages/PrivacyRequest.tsx',
  '/privacy-request/verify': 'src/pages/VerifyPrivacyRequest.tsx',
  '/terms': 'src/pages/Terms.tsx',
  '/thank-you': 'src/pages/ThankYou.tsx',
  '/404': 'src/pages/NotFound.tsx',
};

/**
 * The team console's app module, in the console's own build ({@link buildTeamClient}): src/main.tsx
 * imports it in place of src/hydrate.tsx. Its first load is weighed as a route's, `/team`.
 */
export const TEAM_APP_MODULE = 'src/app/team/hydrate.tsx';

/** The console's prerendered route: its sign-in screen, answered for every path under `/team` (server/http/site.ts). */
export const TEAM_ROUTE = '/team';

/**
 * Adds `chunk`'s file to `files`, then those of the chunks it imports statically, directly or not.
 * @param manifest - the build's Vite manifest
 * @param chunk - one of its entries
 * @param {Set<string>} files - paths relative to the build's root, e.g. `assets/index-….js`
 */
function withStaticImports(manifest, chunk, files) {
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const key of chunk.imports ?? []) withStaticImports(manifest, manifest[key], files);
  return files;
}

/**
 * The JavaScript a route loads before any interaction, from Vite's build manifest: the entry and its
 * static imports; what the entry imports dynamically (src/main.tsx: the app, src/hydrate.tsx, fetched once
 * the page is painted, and part of every route's first load all the same, since nothing on the page works
 * without it) and its static imports; then the route's page chunk and its static imports.
 * @param module - the route's page module; by default PAGE_MODULES[route] (TEAM_APP_MODULE for `/team`, in the console's manifest)
 * @returns paths relative to the build's root, e.g. `assets/index-….js`
 * @throws when the route's page is not in the manifest (PAGE_MODULES is out of date)
 */
export function firstLoadChunks(manifest, route, module = PAGE_MODULES[route]) {
  const page = manifest[module];
  if (!page) throw new Error(`no chunk for ${route} (${module}): update PAGE_MODULES in scripts/build.mjs`);
  const files = new Set();
  const visit = (chunk) => withStaticImports(manifest, chunk, files);
  const entries = Object.values(manifest).filter((chunk) => chunk.isEntry);
  for (const chunk of entries) visit(chunk);
  for (const chunk of entries) for (const key of chunk.dynamicImports ?? []) visit(manifest[key]);
  visit(page);
  return [...files];
}

/**
 * The chunks a route's entry loader fetches besides the app's ({@link entryLoader}), from Vite's build
 * manifest: `page`, the route's page chunk and its static imports, which are part of its first load
 * ({@link firstLoadChunks}) but which the app would only ask for once it runs; and `deferred`, the parts the
 * page imports itself (src/components/lazyPart.tsx: the forms and the estimator, each loaded after the load
 * event) with their static imports, less what the first load holds. Fetched by the loader rather than by
 * the modules that import them, they come in one round trip, not one after another: on Lighthouse's slow
 * 4G (562 ms a request), the estimator's slider had waited for the app, then the page, then its own chunk,
 * and was enabled 2.6–3.5 s after the load event.
 * @returns `{ page, deferred }`: URLs, e.g. `/assets/Home-….js`
 * @throws when the route's page is not in the manifest (PAGE_MODULES is out of date)
 */
export function routeChunks(manifest, route, module = PAGE_MODULES[route]) {
  const page = manifest[module];
  if (!page) throw new Error(`no chunk for ${route} (${module}): update PAGE_MODULES in scripts/build.mjs`);
  const app = new Set();
  const entries = Object.values(manifest).filter((chunk) => chunk.isEntry);
  for (const chunk of entries) withStaticImports(manifest, chunk, app);
  for (const chunk of entries) for (const key of chunk.dynamicImports ?? []) withStaticImports(manifest, manifest[key], app);
  const firstLoad = new Set(firstLoadChunks(manifest, route, module));
  const deferred = new Set();
  for (const key of page.dynamicImports ?? []) withStaticImports(manifest, manifest[key], deferred);
  const url = (file) => `/${file}`;
  return {
    page: [...firstLoad].filter((file) => !app.has(file)).map(url),
    deferred: [...deferred].filter((file) => !firstLoad.has(file)).map(url),
  };
}

/**
 * The team console's client build: the same entry (src/main.tsx) with `__TEAM_BUILD__` true, so that it
 * imports the console's app (src/app/team/hydrate.tsx) and nothing of the site's: its chunk graph has its
 * own React, and neither the consent machine, PostHog nor a public page. Built on its own, so that the
 * site's chunks stay as they are.
 * @param {{ outDir: string, logLevel?: 'info' | 'warn' | 'error' | 'silent' }} options - a directory of its own
 * @returns {Promise<Record<string, any>>} its Vite manifest (the `.vite` folder is removed)
 */
export async function buildTeamClient({ outDir, logLevel = 'warn' }) {
  await build({
    configFile: 'vite.config.ts',
    mode: 'production',
    logLevel,
    define: { __TEAM_BUILD__: 'true' },
    build: { outDir, emptyOutDir: true, manifest: true, copyPublicDir: false },
  });
  const manifest = JSON.parse(await readFile(join(outDir, '.vite', 'manifest.json'), 'utf8'));
  await rm(join(outDir, '.vite'), { recursive: true, force: true });
  return manifest;
}

/**
 * The entry loader: the one script a page holds, inline (so it costs no request), which imports the
 * page's entry (src/main.tsx's chunk) once the browser reports the first contentful paint, and preloads
 * that chunk's imports with it, static and dynamic (the app's chunks), and the route's page chunks (the
 * root's `data-page-chunks`); then, once the load event has come too, the chunks of the parts the page
 * loads after it (`data-deferred-chunks`: the forms, the estimator), at low priority, so that they come
 * with the app's rather than after them ({@link routeChunks}). The prerendered page is whole without any script, so nothing of
 * the app competes with what that paint needs: with the entry as a `<script src>` and its imports as
 * `modulepreload` links, Chrome fetched and ran them before the paint, and Lighthouse's simulation counted
 * them as blocking it (FCP 29 % above the same page without scripts, `npm run bench`). A page that is
 * hidden before it paints never reports the paint: it starts when hidden; a browser without paint timing
 * (https://w3c.github.io/paint-timing/) or PerformanceObserver starts at once, as a module script would.
 * Each preload is a task of its own (`scheduler.postTask`, else a zero timer), after the entry's import:
 * issuing a request costs the main thread 0.1–5 ms in Chromium, and on `/` the paint's callback, which
 * issued the app's 5 requests and, when the load event had come first, the later parts' 9, was a task of
 * 8–40 ms on this project's machines (Lighthouse's traces), a long task once the CPU is slowed down to the
 * phone's (4–13×); one by one, the callback took 4–7 ms (Chromium's traces, not slowed down).
 * Then, in a task of its own, it touches localStorage: a page's first access asks the browser process, in a
 * synchronous call, whether the page may use storage, and loads the origin's storage area (1–3 ms of the
 * main thread in Chromium's traces on this project's machines, 4.5 ms once they were busy; later accesses
 * 0.4–0.7 ms), which would otherwise be paid inside a task of hydration, where the consent machine reads
 * the stored preference (src/services/consentStore.ts). Where
 * storage is blocked the access throws, silently here: the consent machine's own read logs it.
 * The script is the same on every page (one hash in the Content-Security-Policy): the page's own chunks
 * are data of its root element. First of all, as the document has been parsed, it enables the controls
 * that work before hydration (src/hooks/useChangeBeforeHydration.ts: the estimator's slider), which
 * stay disabled without JavaScript.
 * @param {string} entry - the entry chunk's URL, e.g. `/assets/index-….js`
 * @param {string[]} imports - the URLs of the chunks it imports, directly or not: statically, and the app's dynamically
 * @returns the script's text (its SHA-256 goes into the Content-Security-Policy)
 */
function entryLoader(entry, imports) {
  return `for (const control of document.querySelectorAll('[${ENABLED_BEFORE_HYDRATION}]')) control.disabled = false;
let started = false;
const preload = (href, fetchPriority = 'auto') => document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href, fetchPriority }));
const chunks = (name) => (document.getElementById('root')?.dataset[name] ?? '').split(' ').filter(Boolean);
const later = typeof globalThis.scheduler?.postTask === 'function' ? (work) => scheduler.postTask(work) : (work) => setTimeout(work, 0);
const preloadEach = (hrefs, fetchPriority) => {
  const href = hrefs.shift();
  if (href === undefined) return;
  preload(href, fetchPriority);
  later(() => preloadEach(hrefs, fetchPriority));
};
const start = () => {
  if (started) return;
  started = true;
  import(${JSON.stringify(entry)}).catch((error) => console.error('[app] could not be loaded:', error));
  later(() => preloadEach([...${JSON.stringify(imports)}, ...chunks('pageChunks')]));
  later(() => {
    try {
      void localStorage.length;
    } catch {}
  });
  const deferred = () => later(() => preloadEach(chunks('deferredChunks'), 'low'));
  if (document.readyState === 'complete') deferred();
  else window.addEventListener('load', deferred, { once: true });
};
if (document.visibilityState === 'hidden' || typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) start();
else {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && start());
}`;
}

/**
 * The page template with Vite's entry `<script type="module" src>` replaced by {@link entryLoader}.
 * @param template - Vite's index.html
 * @param manifest - the build's Vite manifest: the entry's static imports, and theirs, which the loader preloads
 * @returns `{ template, script }`: the template, and the loader's text
 * @throws when the template has no entry script to replace (the build's output changed)
 */
function deferEntry(template, manifest) {
  const tag = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(template);
  if (!tag) throw new Error('the page template has no entry <script type="module" crossorigin src="/assets/…">');
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry && `/${chunk.file}` === tag[1]);
  if (!entry) throw new Error(`${tag[1]} is not an entry of the build's manifest`);
  // The entry's static imports, and the chunks of the app it imports dynamically (React DOM, then the
  // app, each evaluated in a task of its own: src/main.tsx), all fetched at once.
  const files = withStaticImports(manifest, entry, new Set());
  for (const key of entry.dynamicImports ?? []) withStaticImports(manifest, manifest[key], files);
  const imports = [...files].slice(1).map((file) => `/${file}`);
  const script = entryLoader(tag[1], imports);
  return { template: template.replace(tag[0], () => `<script type="module">${script}</script>`), script };
}

/**
 * The page template with its icon inline (a `data:` URL, which the CSP's img-src allows): one request less
 * around the first paint. Chrome fetches the icon at high priority about when the page paints, and when that
 * request ended before the largest contentful paint, Lighthouse's simulation counted it against it: LCP of
 * `/` 900 ms instead of 750 ms, one run in two, on the page as on its no-script copy (`npm run bench`).
 * A PNG of {@link FAVICON_SIZE_PX} px, rasterised here from /favicon.svg, not the SVG itself: Chromium
 * draws a tab's icon on the page's main thread, and an SVG icon is a document of its own to build, lay out
 * and paint there, a task of 4.5–14.6 ms about when the page paints (Chromium's traces on this project's
 * machines, not slowed down; 4–19.5 ms in Lighthouse's), which a phone makes a long task; the PNG is
 * decoded in 0.2–1.3 ms. It costs about 0.6 KB more of each page's HTML.
 * /favicon.svg stays, for the web app manifest and the PNG icons.
 * @throws when the template links no /favicon.svg (index.html changed)
 */
async function inlineFavicon(template, dir) {
  const link = '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />';
  if (!template.includes(link)) throw new Error(`the page template has no ${link}`);
  const svg = (await readFile(join(dir, 'favicon.svg'), 'utf8')).trim();
  const png = renderIcon(svg, FAVICON_SIZE_PX).toString('base64');
  return template.replace(link, () => `<link rel="icon" href="data:image/png;base64,${png}" type="image/png" sizes="${FAVICON_SIZE_PX}x${FAVICON_SIZE_PX}" />`);
}

/** The page template with its stylesheet inlined: `{ template, css }` (css null when it links none). */
async function inlineStylesheet(template, dir) {
  const stylesheet = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/.exec(template);
  if (!stylesheet) return { template, css: null };
  const css = await readFile(join(dir, stylesheet[1]), 'utf8');
  return { template: template.replace(stylesheet[0], () => `<style>${css}</style>`), css };
}

/**
 * Builds the site into `outDir` and prerenders it.
 * @param {{ outDir?: string, logLevel?: 'info' | 'warn' | 'error' | 'silent' }} options
 * @returns {Promise<{ firstLoad: Record<string, string[]> }>} per prerendered route, the JavaScript files
 *   it loads before any interaction (what `npm run bench` weighs)
 */
export async function buildSite({ outDir = 'dist', logLevel = 'info' } = {}) {
  process.env.NODE_ENV = 'production';
  const out = resolve(outDir);
  await build({ configFile: 'vite.config.ts', mode: 'production', logLevel, build: { outDir: out, emptyOutDir: true, manifest: true } });
  const manifestFile = join(out, '.vite', 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  await rm(join(out, '.vite'), { recursive: true, force: true }); // for the build only, never served

  // Inside the project, so that the server bundle resolves its dependencies from node_modules.
  const ssrDir = resolve('node_modules/.cache/sonde-ssr', String(process.pid));
  const teamDir = resolve('node_modules/.cache/sonde-team', String(process.pid));
  try {
    await build({
      configFile: 'vite.config.ts',
      mode: 'production',
      logLevel: 'warn',
      build: { ssr: 'src/entry-server.tsx', outDir: ssrDir, emptyOutDir: true, copyPublicDir: false },
    });
    const site = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
    const { render, prerenderedRoutes, notFoundPath, indexableRoutes, llmsText, pageMeta, securityEmail, siteUrl } = site;
    await site.preloadAllPages();
    // The stylesheet (about 3 KB gzip) goes inline: one request less before the first paint.
    const loaded = deferEntry(await inlineFavicon(await readFile(join(out, 'index.html'), 'utf8'), out), manifest);
    const { template, css } = await inlineStylesheet(loaded.template, out);
    const inlineStyles = css === null ? [] : [css];
    const inlineScripts = [loaded.script];
    const rendered = new Map();
    const firstLoad = {};
    for (const route of [...prerenderedRoutes, notFoundPath]) {
      const body = render(route);
      rendered.set(route, body);
      const chunks = routeChunks(manifest, route);
      const page = template
        .replace(/<title>[^<]*<\/title>/, () => site.headHtml(route))
        .replace('</head>', `${site.structuredDataHtml(route)}</head>`)
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${route}" data-page-chunks="${chunks.page.join(' ')}" data-deferred-chunks="${chunks.deferred.join(' ')}">${body}</div>`);
      await mkdir(dirname(join(out, htmlFileOf(route))), { recursive: true }); // /privacy-request/verify
      await writeFile(join(out, htmlFileOf(route)), page);
      firstLoad[route] = firstLoadChunks(manifest, route);
    }
    // The team console: its own build, its assets beside the site's, its sign-in screen prerendered into
    // team.html (noindex; the server answers it for every path under /team), its stylesheet inline.
    const teamManifest = await buildTeamClient({ outDir: teamDir, logLevel: logLevel === 'info' ? 'warn' : logLevel });
    await cp(join(teamDir, 'assets'), join(out, 'assets'), { recursive: true });
    const teamLoaded = deferEntry(await inlineFavicon(await readFile(join(teamDir, 'index.html'), 'utf8'), out), teamManifest);
    const team = await inlineStylesheet(teamLoaded.template, teamDir);
    if (team.css !== null) inlineStyles.push(team.css);
    inlineScripts.push(teamLoaded.script);
    await writeFile(
      join(out, htmlFileOf(TEAM_ROUTE)),
      team.template
        .replace(/<title>[^<]*<\/title>/, () => site.teamHeadHtml())
        .replace('<div id="root"></div>', `<div id="root" data-prerendered="${TEAM_ROUTE}">${site.renderTeam(TEAM_ROUTE)}</div>`),
    );
    firstLoad[TEAM_ROUTE] = firstLoadChunks(teamManifest, TEAM_ROUTE, TEAM_APP_MODULE);
    // The sitemap of the indexable routes, and robots.txt pointing at it.
    const urls = indexableRoutes.map((route) => `  <url><loc>${siteUrl}${route}</loc></url>`).join('\n');
    await writeFile(join(out, 'sitemap.xml'), `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
    const llms = llmsText(siteUrl);
    await writeFile(join(out, 'llms.txt'), llms);
    const heading = llms.slice(0, llms.indexOf('\n## ')); // the H1 and the summary
    const pages = indexableRoutes.map((route) => ({ url: `${siteUrl}${route}`, title: pageMeta[route].title, main: mainOf(rendered.get(route)) }));
    await writeFile(join(out, 'llms-full.txt'), llmsFullText(heading, siteUrl, pages));
    // The share image (og:image) and the PNG icons, rendered here from the content and favicon.svg.
    await writeFile(join(out, site.shareImagePath.slice(1)), await renderShareImage(site.shareCard(siteUrl)));
    const favicon = await readFile(join(out, 'favicon.svg'), 'utf8');
    for (const [file, size] of Object.entries(ICON_SIZES)) await writeFile(join(out, file), renderIcon(favicon, size));
    await writeFile(join(out, site.webManifestPath.slice(1)), `${JSON.stringify(site.webManifest(), null, 2)}\n`);
    // RFC 9116: Contact and Expires are required; Expires one year after the build.
    const expires = new Date(Date.now() + 365 * 24 * 60 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await mkdir(join(out, '.well-known'), { recursive: true });
    await writeFile(
      join(out, '.well-known', 'security.txt'),
      `Contact: mailto:${securityEmail}\nExpires: ${expires}\nPreferred-Languages: en\nCanonical: ${siteUrl}/.well-known/security.txt\n`,
    );
    // The team console is for the team only: no crawler needs it (its page is noindex as well).
    await writeFile(join(out, 'robots.txt'), `User-agent: *\nAllow: /\nDisallow: ${TEAM_ROUTE}\n\nSitemap: ${siteUrl}/sitemap.xml\n`);
    const { endpoint, headers } = headersFor(inlineStyles, inlineScripts, loadEnv('production', process.cwd(), 'VITE_'));
    await writeFile(join(out, '_headers'), netlifyHeadersFile(headers));
    await writeFile(join(out, 'vercel.json'), `${JSON.stringify(vercelConfig(headers), null, 2)}\n`);
    await precompress(out);
    if (logLevel !== 'silent') {
      console.log(`prerendered ${prerenderedRoutes.length} routes, ${notFoundPath} and the team console (${TEAM_ROUTE}, its own build) into ${outDir}`);
      console.log(`submission endpoint (VITE_SUBMIT_ENDPOINT): ${endpoint}`);
      if (!originOf(endpoint)) {
        console.warn(
          `warning: the forms POST to the relative path ${endpoint}, which only the Sonde server answers ` +
            '(npm start, server/main.ts). On a static host, build with VITE_SUBMIT_ENDPOINT set to the server\'s URL.',
        );
      }
    }
    return { firstLoad };
  } finally {
    await rm(ssrDir, { recursive: true, force: true });
    await rm(teamDir, { recursive: true, force: true });
  }
}

/**
 * Whether `dir` is `outside` itself or inside it: the server's bundle must never be there, where the
 * site is published as static files.
 */
function isWithin(dir, outside) {
  const path = relative(resolve(outside), resolve(dir));
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const option = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
  const outDir = option('--outDir', 'dist');
  const serverOutDir = option('--serverOutDir', SERVER_BUILD_DIR);
  if (isWithin(serverOutDir, outDir)) throw new Error(`--serverOutDir ${serverOutDir} is inside ${outDir}, which is served as static files`);
  await buildSite({ outDir });
  await bundleServer(serverOutDir);
  console.log(`bundled the server and the command line into ${serverOutDir} (node --enable-source-maps ${join(serverOutDir, 'server.mjs')})`);
}
