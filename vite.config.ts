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

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), sondeApi(), devPrerender(), compileHints()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  server: { host: '127.0.0.1', port: 5173 },
  // One stylesheet for every page (about 3 KB gzip), inlined by scripts/build.mjs: a page's chunk
  // (issue #13) never brings CSS of its own, so the prerendered HTML is styled before any script runs.
  build: { target: 'es2022', sourcemap: false, cssCodeSplit: false },
});
