import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import MagicString from 'magic-string';
import { defineConfig, type Plugin } from 'vite';
import { devPrerender } from './scripts/devPrerender.ts';
import { sondeApi } from './server/devServer.ts';

/**
 * V8's explicit compile hint (Chrome 136+; other engines ignore it as a comment): every function of a
 * chunk that starts with it is compiled eagerly, on a background thread while the chunk streams in,
 * instead of lazily on the main thread the first time it is called. Every chunk of this site runs on load
 * or in the idle periods right after it (hydration, the PostHog SDK, rrweb's first snapshot), where a
 * function's first call would otherwise compile it inside a task a visitor may be waiting on
 * (TBT, which `npm run bench` measures). It must be the file's first line, so it goes in once the chunk
 * is written: Vite puts its own `__vite__mapDeps` line on top of the entry chunk after every plugin's
 * `generateBundle`. The comment is the same in every build, so each file name's hash still names its
 * content.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Puts {@link COMPILE_HINT} on the first line of every JavaScript file a client build writes: its chunks,
 * and its workers' bundles, which Vite emits as assets.
 */
function compileHints(): Plugin {
  return {
    name: 'sonde:compile-hints',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (this.environment.config.build.ssr || !options.dir) return; // the prerender's bundle runs in Node, once
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' && !file.fileName.endsWith('.js')) continue;
        const path = join(options.dir, file.fileName);
        await writeFile(path, `${COMPILE_HINT}\n${await readFile(path, 'utf8')}`);
      }
    },
  };
}

/** The app's module: src/main.tsx imports it once the page is painted (scripts/build.mjs: APP_MODULE). */
const APP_MODULE = fileURLToPath(new URL('./src/hydrate.tsx', import.meta.url));

/**
 * Every module the app's module reaches through static imports, collected once the build has parsed them,
 * so that they go into the app's one chunk (`build.rolldownOptions.output.codeSplitting` below). Left to
 * the automatic chunking, the modules it shares with the pages' chunks (React, XState, the config, ...)
 * went into six small chunks of their own, which the first load fetches all the same and which gzip
 * worse apart: 2.5 KB more on every route.
 */
function appChunk(): { plugin: Plugin; modules: Set<string> } {
  const modules = new Set<string>();
  return {
    modules,
    plugin: {
      name: 'sonde:app-chunk',
      apply: 'build',
      buildStart() {
        modules.clear(); // each build its own (scripts/build.mjs builds the site, then the console)
      },
      buildEnd() {
        if (this.environment.config.build.ssr) return;
        const visit = (id: string) => {
          if (modules.has(id)) return;
          modules.add(id);
          for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported);
        };
        visit(APP_MODULE);
      },
    },
  };
}

/**
 * The machines' `description` texts (machines/*.ts) are their documentation: `npm run docs:machines` and
 * the Stately inspector (`npm run dev`) read them. A production client build leaves them out, since
 * nothing there reads them: about 0.6 KB gzip of the first load of every route (the consent and opt-out
 * toast machines are in the app's chunk). Each `description: '…'` property whose value is a plain
 * string is removed from the module's syntax tree, with its comma; nothing else is touched.
 */
function machineDescriptionsOut(): Plugin {
  const machines = fileURLToPath(new URL('./machines/', import.meta.url));
  return {
    name: 'sonde:machine-descriptions-out',
    apply: 'build',
    enforce: 'post', // after TypeScript is compiled: the code is JavaScript
    transform(code, id) {
      if (this.environment.config.build.ssr || !id.startsWith(machines)) return null;
      const ranges: Array<[number, number]> = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (!node || typeof node !== 'object') return;
        const n = node as { type?: string; key?: { type: string; name?: string; value?: unknown }; value?: { type: string; expressions?: unknown[] }; start: number; end: number };
        const isDescription = n.type === 'Property' && (n.key?.name === 'description' || n.key?.value === 'description');
        const isText = n.value?.type === 'Literal' || (n.value?.type === 'TemplateLiteral' && n.value.expressions?.length === 0);
        if (isDescription && isText) {
          ranges.push([n.start, /^\s*,/.test(code.slice(n.end)) ? n.end + code.slice(n.end).indexOf(',') + 1 : n.end]);
          return;
        }
        for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
      };
      visit(this.parse(code));
      if (ranges.length === 0) return null;
      const out = new MagicString(code);
      for (const [start, end] of ranges) out.remove(start, end);
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
  };
}

const app = appChunk();

/** The `posthogSdk` chunk: the SDK's entry point and extensions, and the site's modules that import them. */
const POSTHOG_SDK_MODULES = /\/src\/services\/posthog(Sdk|Session)\.ts$|\/node_modules\/posthog-js\/dist\/(module\.slim\.no-external|extension-bundles)\.js$/;

/** React DOM, React, its scheduler and Vite's helper for dynamic imports: the `react-dom` chunk. */
const REACT_DOM_MODULES = /\/node_modules\/(react|react-dom|scheduler)\/|vite\/preload-helper/;

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), sondeApi(), devPrerender(), compileHints(), machineDescriptionsOut(), app.plugin],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  // __TEAM_BUILD__: true in the team console's build only (scripts/build.mjs, src/main.tsx)
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()), __TEAM_BUILD__: 'false' },
  server: { host: '127.0.0.1', port: 5173 },
  // The dev server's dependency scan does not see this import: vanilla-extract's plugin adds it when it
  // compiles a `recipe()` of a .css.ts file. Found on the first page load instead, it made Vite optimise
  // it then and reload the page, failing the app's import in flight (504 "Outdated Optimize Dep").
  optimizeDeps: { include: ['@vanilla-extract/recipes/createRuntimeFn'] },
  // One stylesheet for every page (about 3 KB gzip), inlined by scripts/build.mjs: a page's chunk
  // never brings CSS of its own, so the prerendered HTML is styled before any script runs.
  build: {
    target: 'es2022',
    sourcemap: false,
    cssCodeSplit: false,
    // No `modulepreload` link in the HTML: scripts/build.mjs replaces the entry's script tag with a loader
    // that imports the entry after the first paint, and preloads its imports then (`entryLoader`).
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? [] : deps) },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The app's modules but React DOM's (below): one chunk, since six small ones gzip worse.
            { name: 'hydrate', test: (id: string) => app.modules.has(id), priority: 1 },
            // React DOM (with React and its scheduler) in a chunk of its own, which src/main.tsx imports
            // first: evaluating it is a task of its own, apart from the app's (DESIGN.md §4, TBT). Vite's
            // helper for dynamic imports goes here too (a chunk of its own cost 0.3 KB more on every first
            // load), so that the entry's static import of it evaluates none of the app's code: React's
            // modules are CommonJS, run only when first required.
            { name: 'react-dom', test: (id: string) => app.modules.has(id) && REACT_DOM_MODULES.test(id), priority: 2 },
            // PostHog's SDK with the steps of a tracking session that run it (src/services/posthogSession.ts),
            // fetched after the load event: one chunk, named for the SDK it holds.
            { name: 'posthogSdk', test: (id: string) => POSTHOG_SDK_MODULES.test(id), priority: 1 },
          ],
        },
      },
    },
  },
});
