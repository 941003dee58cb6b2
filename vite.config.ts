import { fileURLToPath, URL } from 'node:url';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { sondeApi } from './server/devServer.ts';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), sondeApi()],
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
