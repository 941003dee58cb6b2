import { fileURLToPath, URL } from 'node:url';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { sondeApi } from './server/devServer.ts';

export default defineConfig({
  // `react` and `react-dom` are preact/compat (package.json: npm aliases of @preact/compat, issue #13): React
  // Fast Refresh cannot update Preact components, so in `npm run dev` an edited component reloads the page.
  plugins: [react({ refreshExclude: /./ }), vanillaExtractPlugin(), sondeApi()],
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
      onwarn(warning, warn) {
        // React Router reads React 19's useOptimistic where it exists and does without it otherwise;
        // preact/compat has none (issue #13), which is expected, not a fault of the build.
        if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('`useOptimistic`')) return;
        warn(warning);
      },
    },
  },
});
