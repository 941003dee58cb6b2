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
      include: ['tests/{views,machines,services,server,model,docs,build,lint}/**/*.test.{ts,tsx}'],
      setupFiles: ['tests/setup.ts'],
      // One migrated database (PGlite, and PostgreSQL with DATABASE_URL) that test databases are copied from.
      globalSetup: ['tests/support/globalSetup.ts'],
      restoreMocks: true,
      // fake-indexeddb (tests/setup.ts) runs on setImmediate: a fake clock leaves it alone, so IndexedDB
      // keeps working under vi.useFakeTimers() while the machines' delays stay on the fake clock.
      fakeTimers: { toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] },
      // Server tests start databases and processes; on a loaded 2-core CI machine 5 s is too tight.
      testTimeout: 15_000,
      hookTimeout: 30_000,
    },
  }),
);
