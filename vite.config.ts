import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { devPrerender } from './scripts/devPrerender.ts';
import { sondeApi } from './server/devServer.ts';

/**
 * V8's explicit compile hint (Chrome 136+; other engines ignore it as a comment): every function of a
 * chunk that starts with it is compiled eagerly, on a background thread while the chunk streams in,
 * instead of lazily on the main thread the first time it is called. Every chunk of this site runs on load
 * or in the idle periods right after it (hydration, the PostHog SDK, rrweb's first snapshot), where a
 * function's first call would otherwise compile it inside a task a visitor may be waiting on (issue #13,
 * TBT; measured in docs/architecture.md). It must be the file's first line, so it goes in once the chunk
 * is written: Vite puts its own `__vite__mapDeps` line on top of the entry chunk after every plugin's
 * `generateBundle`. The comment is the same in every build, so each file name's hash still names its
 * content.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** Puts {@link COMPILE_HINT} on the first line of every JavaScript chunk a client build writes. */
function compileHints(): Plugin {
  return {
    name: 'sonde:compile-hints',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (this.environment.config.build.ssr || !options.dir) return; // the prerender's bundle runs in Node, once
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
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

const app = appChunk();

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), sondeApi(), devPrerender(), compileHints(), app.plugin],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  server: { host: '127.0.0.1', port: 5173 },
  // One stylesheet for every page (about 3 KB gzip), inlined by scripts/build.mjs: a page's chunk
  // (issue #13) never brings CSS of its own, so the prerendered HTML is styled before any script runs.
  build: {
    target: 'es2022',
    sourcemap: false,
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Vite's helper for dynamic imports, which src/main.tsx uses too: in the app's chunk, it made
            // the entry import that chunk statically, i.e. before the first paint.
            { name: 'preload-helper', test: /preload-helper/, priority: 2 },
            { name: 'hydrate', test: (id: string) => app.modules.has(id), priority: 1 },
          ],
        },
      },
    },
  },
});
