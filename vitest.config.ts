import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      globals: true,
      css: true,
      restoreMocks: true,
      // fake-indexeddb (tests/setup.ts) runs on setImmediate: a fake clock leaves it alone, so IndexedDB
      // keeps working under vi.useFakeTimers() while the machines' delays stay on the fake clock.
      fakeTimers: { toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] },
      // Server tests start databases and processes; on a loaded 2-core CI machine 5 s is too tight.
      testTimeout: 15_000,
      hookTimeout: 30_000,
      // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, idle while a
      // server test waits on a socket, a child process or a slow SMTP peer. One per core, plus one to fill
      // those waits.
      maxWorkers: '150%',
      // Explicit includes, so that tests/e2e/*.spec.ts (Playwright) is never picked up (DESIGN.md §3).
      projects: [
        {
          extends: true,
          test: {
            name: 'browser',
            // The site in jsdom, its network answered by MSW (tests/setup.ts).
            environment: 'jsdom',
            include: ['tests/{views,machines,services,model}/**/*.test.{ts,tsx}'],
            setupFiles: ['tests/setup.ts'],
          },
        },
        {
          extends: true,
          test: {
            name: 'node',
            // The server over real HTTP, its storage, the build, the docs and the lint rules: no DOM, no MSW.
            environment: 'node',
            include: ['tests/{server,docs,build,lint}/**/*.test.{ts,tsx}'],
            // One migrated database (PGlite, and PostgreSQL with DATABASE_URL) that test databases are copied from.
            globalSetup: ['tests/support/globalSetup.ts'],
          },
        },
      ],
    },
  }),
);
