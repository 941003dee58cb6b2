import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_INBOX_FILE, E2E_POSTHOG_HOST } from './tests/e2e/constants';

/**
 * End-to-end tests in a real Chromium against production builds served by `vite preview`
 * (the same server as `npm start`, with the local submissions inbox).
 *
 * Two builds: `site` is configured as a fresh clone is (no PostHog key: analytics off);
 * `analytics` has a dummy PostHog key whose host the tests intercept (tests/e2e/consent.spec.ts).
 * `dev` is the Vite dev server (`npm run dev`), for the Stately inspector (tests/e2e/inspector.spec.ts).
 * Debian's Chromium is used when present: Playwright's own browser download cannot run here (DESIGN.md §3).
 */
const SITE_PORT = 4180;
const ANALYTICS_PORT = 4181;
const DEV_PORT = 4182;

const chromium = '/usr/bin/chromium';

function server(name: string, port: number, env: Record<string, string>) {
  const outDir = `.e2e/${name}`;
  return {
    command: `node scripts/build.mjs --outDir ${outDir} && npx vite preview --outDir ${outDir} --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { ...env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    stdout: 'pipe' as const,
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  use: {
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
    launchOptions: {
      ...(existsSync(chromium) ? { executablePath: chromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    {
      name: 'site',
      testIgnore: /(consent|inspector)\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${SITE_PORT}` },
    },
    {
      name: 'analytics',
      testMatch: /consent\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${ANALYTICS_PORT}` },
    },
    {
      name: 'dev',
      testMatch: /inspector\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${DEV_PORT}` },
    },
  ],
  webServer: [
    server('site', SITE_PORT, { SONDE_INBOX_FILE: E2E_INBOX_FILE, VITE_POSTHOG_KEY: '' }),
    server('analytics', ANALYTICS_PORT, {
      SONDE_INBOX_FILE: E2E_INBOX_FILE,
      VITE_POSTHOG_KEY: 'phc_e2e_dummy_key',
      VITE_POSTHOG_HOST: E2E_POSTHOG_HOST,
    }),
    {
      // `npm run dev`, for the Stately inspector (tests/e2e/inspector.spec.ts)
      command: `npx vite --port ${DEV_PORT} --strictPort`,
      url: `http://127.0.0.1:${DEV_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { SONDE_INBOX_FILE: E2E_INBOX_FILE, VITE_POSTHOG_KEY: '', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      stdout: 'pipe' as const,
    },
  ],
});
