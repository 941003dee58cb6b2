// `npm run build`: the client build, then every route of spec §2 prerendered to static HTML.
//   dist/index.html, dist/privacy.html, … dist/404.html (the not-found page)
// Usage: node scripts/build.mjs [--outDir dir]
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

/** Moves the hoisted `<title>`/`<meta>` that React renders first into the page's head. */
function splitHoisted(markup) {
  const hoisted = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/?>)+/.exec(markup)?.[0] ?? '';
  return { hoisted, body: markup.slice(hoisted.length) };
}

/**
 * Builds the site into `outDir` and prerenders it.
 * @param {{ outDir?: string, logLevel?: 'info' | 'warn' | 'error' | 'silent' }} options
 */
export async function buildSite({ outDir = 'dist', logLevel = 'info' } = {}) {
  process.env.NODE_ENV = 'production';
  const out = resolve(outDir);
  await build({ configFile: 'vite.config.ts', mode: 'production', logLevel, build: { outDir: out, emptyOutDir: true } });

  // Inside the project, so that the server bundle resolves its dependencies from node_modules.
  const ssrDir = resolve('node_modules/.cache/sonde-ssr', String(process.pid));
  try {
    await build({
      configFile: 'vite.config.ts',
      mode: 'production',
      logLevel: 'warn',
      build: { ssr: 'src/entry-server.tsx', outDir: ssrDir, emptyOutDir: true, copyPublicDir: false },
    });
    const { render, prerenderedRoutes, notFoundPath } = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
    // The stylesheet (about 3 KB gzip) goes inline: one request less before the first paint.
    let template = await readFile(join(out, 'index.html'), 'utf8');
    const stylesheet = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/.exec(template);
    if (stylesheet) {
      const css = await readFile(join(out, stylesheet[1]), 'utf8');
      template = template.replace(stylesheet[0], () => `<style>${css}</style>`);
    }
    for (const route of [...prerenderedRoutes, notFoundPath]) {
      const { hoisted, body } = splitHoisted(render(route));
      const page = template
        .replace(/<title>[^<]*<\/title>/, hoisted.replace(/<title>/, '<title data-prerendered="">'))
        .replace('<div id="root"></div>', `<div id="root" data-prerendered="${route}">${body}</div>`);
      const file = route === '/' ? 'index.html' : `${route.slice(1)}.html`;
      await writeFile(join(out, file), page);
    }
    if (logLevel !== 'silent') console.log(`prerendered ${prerenderedRoutes.length} routes and ${notFoundPath} into ${outDir}`);
  } finally {
    await rm(ssrDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--outDir');
  await buildSite({ outDir: at > 0 ? process.argv[at + 1] : 'dist' });
}
