import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import {
  E2E_ANALYTICS_PGLITE_DIR,
  E2E_ANALYTICS_PORT,
  E2E_EVENTS_FILE,
  E2E_EVENTS_SECRET,
  E2E_EVENTS_URL,
  E2E_POSTHOG_HOST,
  E2E_SITE_MAIL_DIR,
  E2E_SITE_PGLITE_DIR,
  E2E_SITE_PORT,
  E2E_SMTP_DIR,
  E2E_SMTP_PORT,
  E2E_WEBHOOK_FILE,
  E2E_WEBHOOK_PORT,
  E2E_WEBHOOK_URL,
} from './tests/e2e/constants';

/**
 * End-to-end tests in a real Chromium against production builds served by the Sonde server
 * (server/main.ts bundled and run with plain node, as `npm start` runs it): the site, the submission endpoint and its database.
 *
 * Two builds: `site` is configured as a fresh clone is (no PostHog key: analytics off; mail written as
 * .eml files), and stores into `DATABASE_URL` when it is set (CI starts a PostgreSQL server), else into
 * its own PGlite directory, emptied first; `analytics` has a dummy PostHog key whose host the tests
 * intercept (tests/e2e/consent.spec.ts, verify.spec.ts), sends its mail to a local SMTP server
 * (tests/e2e/smtpReceiver.ts), and always stores into a PGlite directory of its own: on one database, each
 * server's outbox would also send the other's mail, its own way. `dev` is the Vite dev server (`npm run dev`), for the Stately
 * inspector (tests/e2e/inspector.spec.ts) and hydration with React's development build (tests/e2e/hydration.spec.ts).
 * Debian's Chromium is used when present: Playwright's own browser download cannot run here (DESIGN.md §3).
 */
const SITE_PORT = E2E_SITE_PORT;
const ANALYTICS_PORT = E2E_ANALYTICS_PORT;
const DEV_PORT = 4182;

const chromium = '/usr/bin/chromium';
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function server(name: string, port: number, env: Record<string, string>) {
  const outDir = `.e2e/${name}`;
  // the server as `npm start` runs it: bundled for plain node (scripts/serverBundle.mjs), outside the published folder
  const serverDir = `.e2e/${name}-server`;
  const pgliteDir = name === 'site' ? E2E_SITE_PGLITE_DIR : name === 'analytics' ? E2E_ANALYTICS_PGLITE_DIR : `.e2e/pglite-${name}`;
  const mailDir = name === 'site' ? E2E_SITE_MAIL_DIR : `.e2e/mail-${name}`;
  return {
    command: `rm -rf ${pgliteDir} ${mailDir} && npx tsx scripts/build.mjs --outDir ${outDir} --serverOutDir ${serverDir} && node --enable-source-maps ${serverDir}/server.mjs`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      ...env,
      PORT: String(port),
      SONDE_DIST_DIR: outDir,
      SONDE_PGLITE_DIR: pgliteDir,
      SONDE_MAIL_DIR: mailDir,
      // Every test submits from 127.0.0.1; the limit itself is tested in tests/server/.
      SONDE_RATE_LIMIT_PER_MINUTE: '1000',
      // every console test signs in from 127.0.0.1 too; the team's limit is tested in tests/server/teamSignIn.test.ts
      SONDE_TEAM_AUTH_ATTEMPTS_PER_MINUTE: '1000',
      SONDE_LOG_LEVEL: 'warn',
      VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
    },
    stdout: 'pipe' as const,
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  // One retry on CI, which the list reporter prints as "flaky" (a test that fails twice fails the run):
  // in one fresh-clone run of about twenty, headless Chromium stopped producing frames for a page whose
  // scripts still ran (2026-12-08, /privacy-request: two `fill`s went through, the `check` after them
  // waited 28 s for the two animation frames that prove a box stable). Locally a failure fails at once.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  use: {
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
    launchOptions: {
      ...(existsSync(chromium) ? { executablePath: chromium } : {}),
      args: chromiumArgs,
    },
  },
  projects: [
    {
      name: 'site',
      testIgnore: /(consent|inspector|verify)\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${SITE_PORT}` },
    },
    {
      name: 'analytics',
      testMatch: /(consent|verify)\.spec\.ts/,
      use: {
        baseURL: `http://127.0.0.1:${ANALYTICS_PORT}`,
        // posthog-js drops every event of a browser that says it is automated (navigator.webdriver);
        // this one says it is not, so the SDK runs its whole path as for a visitor, recording included.
        launchOptions: {
          ...(existsSync(chromium) ? { executablePath: chromium } : {}),
          args: [...chromiumArgs, '--disable-blink-features=AutomationControlled'],
        },
      },
    },
    {
      name: 'dev',
      testMatch: /(inspector|hydration)\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${DEV_PORT}` },
    },
  ],
  webServer: [
    {
      // the team's webhook receiver: the `site` server announces every stored request to it, and sends it its signed decision events
      command: `rm -f ${E2E_WEBHOOK_FILE} ${E2E_EVENTS_FILE} && npx tsx tests/e2e/webhookReceiver.ts`,
      url: `http://127.0.0.1:${E2E_WEBHOOK_PORT}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'pipe' as const,
    },
    server('site', SITE_PORT, {
      VITE_POSTHOG_KEY: '',
      SONDE_ANNOUNCE_WEBHOOK_URL: E2E_WEBHOOK_URL,
      SONDE_EVENTS_WEBHOOK_URL: E2E_EVENTS_URL,
      SONDE_EVENTS_WEBHOOK_SECRET: E2E_EVENTS_SECRET,
    }),
    {
      // the requesters' mailbox: the `analytics` server mails there (tests/e2e/verify.spec.ts)
      command: `rm -rf ${E2E_SMTP_DIR} && npx tsx tests/e2e/smtpReceiver.ts`,
      port: E2E_SMTP_PORT,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'pipe' as const,
    },
    server('analytics', ANALYTICS_PORT, {
      VITE_POSTHOG_KEY: 'phc_e2e_dummy_key',
      VITE_POSTHOG_HOST: E2E_POSTHOG_HOST,
      DATABASE_URL: '',
      SONDE_SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
    }),
    {
      // `npm run dev`, for the Stately inspector and React's development build (inspector, hydration.spec.ts)
      command: `npx vite --port ${DEV_PORT} --strictPort`,
      url: `http://127.0.0.1:${DEV_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { SONDE_PGLITE_DIR: '.e2e/pglite-dev', VITE_POSTHOG_KEY: '', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      stdout: 'pipe' as const,
    },
  ],
});
