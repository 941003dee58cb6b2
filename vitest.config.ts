import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      globals: true,
      css: true,
      // Explicit, so that tests/e2e/*.spec.ts (Playwright) is never picked up (DESIGN.md §3).
      include: ['tests/{views,machines,services,server,model,docs,build}/**/*.test.{ts,tsx}'],
      setupFiles: ['tests/setup.ts'],
      restoreMocks: true,
    },
  }),
);
