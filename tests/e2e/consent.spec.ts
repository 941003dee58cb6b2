import { gunzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { E2E_ANALYTICS_PORT, E2E_POSTHOG_HOST } from './constants';
import { expect, fillInviteForm, interceptPostHog, test, uniqueEmail } from './fixtures';

// The analytics build's PostHog host: never resolvable, every request answered here.
const POSTHOG_HOST = new URL(E2E_POSTHOG_HOST).hostname;
const OPT_OUT = 'Do Not Sell or Share My Personal Information';
const CONFIRMATION = 'You have opted out of tracking. Your preference has been saved.';

/** The opt-out toast's live region: the page's one status outside `<main>` (the cost estimator's `<output>` is one too). */
const toastStatus = (page: Page) => page.getByRole('status').and(page.locator(':not(main *)'));

/** Every storage key the page holds: cookies, localStorage and sessionStorage. */
async function storageKeys(page: Page): Promise<string[]> {
  const cookies = (await page.context().cookies()).map((c) => `cookie:${c.name}`);
  const web = await page.evaluate(() => [
    ...Object.keys(localStorage).map((k) => `local:${k}`),
    ...Object.keys(sessionStorage).map((k) => `session:${k}`),
  ]);
  return [...cookies, ...web];
}

const postHogKey = /ph_|posthog|__ph/i;

/**
 * The events in PostHog's event requests (`/e/`), in order, each request once: each body is JSON (one
 * event, an array of them, or `{ batch }`), gzip-compressed or not (by fflate or the browser's
 * CompressionStream: told by gzip's magic bytes).
 */
function postHogEvents(requests: Request[]): Array<{ event: string; properties: Record<string, unknown> }> {
  return [...new Set(requests)].filter((r) => new URL(r.url()).pathname.startsWith('/e/')).flatMap((r) => {
    const body = r.postDataBuffer();
    if (!body) return [];
    const gzipped = body[0] === 0x1f && body[1] === 0x8b;
    const parsed = JSON.parse((gzipped ? gunzipSync(body) : body).toString('utf8')) as object | object[];
    if (Array.isArray(parsed)) return parsed;
    return 'batch' in parsed && Array.isArray(parsed.batch) ? parsed.batch : [parsed];
  });
}

test.describe('tracking consent and PostHog in a real browser', () => {
  test('a default visitor is tracked: PostHog requests are made', async ({ page }) => {
    const requests = await interceptPostHog(page);
    await page.goto('/');
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
    // memory persistence: PostHog keeps nothing in the browser's storage
    expect((await storageKeys(page)).filter((k) => postHogKey.test(k))).toEqual([]);
  });

  test("PostHog never loads on the team's console: where the site tracks a default visitor, /team makes no PostHog request", async ({ page, context }) => {
    // the server's public origin (http://localhost: WebAuthn takes no IP address as its relying party)
    const origin = `http://localhost:${E2E_ANALYTICS_PORT}`;
    const tracked = await interceptPostHog(page);
    await page.goto(`${origin}/`);
    await expect.poll(() => tracked.length, { timeout: 10_000 }).toBeGreaterThan(0);

    const teamPage = await context.newPage();
    const requests = await interceptPostHog(teamPage);
    await teamPage.goto(`${origin}/team`);
    await expect(teamPage.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    // past the latest moment the site starts PostHog: ANALYTICS_IDLE_TIMEOUT_MS (3 s) after the load event
    await teamPage.waitForLoadState('load');
    await teamPage.waitForTimeout(4_000);
    expect(requests.map((request) => request.url())).toEqual([]);
    const loaded = await teamPage.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
    expect(loaded.filter((url) => /posthog|module\.full/i.test(url))).toEqual([]);
  });

  test('PostHog blocked (its host and its script, as by a content blocker): the page works and the invite is still sent', async ({ page }) => {
    const errors: string[] = [];
    const warnings: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.route(`https://${POSTHOG_HOST}/**`, (route) => route.abort('blockedbyclient'));
    await page.route(/\/assets\/posthog(Sdk|Recorder)-.*\.js$/, (route) => route.abort('blockedbyclient'));
    await page.goto('/#invite');
    const form = await fillInviteForm(page, uniqueEmail('posthog-blocked'));
    const stored = page.waitForResponse((response) => response.url().endsWith('/api/submissions') && response.status() === 201);
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    await stored;
    // the SDK's chunk (asked for once the page is idle) was refused, and the site said so and went on without analytics
    await expect.poll(() => warnings.some((text) => text.includes('[analytics] PostHog could not be loaded')), { timeout: 10_000 }).toBe(true);
    expect(errors).toEqual([]);
  });

  test('nothing of PostHog before the load event; the SDK, then the recorder, after it; events and recordings sent', async ({ page }) => {
    const requests = await interceptPostHog(page);
    const paths = () => requests.map((r) => new URL(r.url()).pathname);
    await page.goto('/');
    await expect.poll(() => paths().some((path) => path.startsWith('/e/')), { timeout: 10_000 }).toBe(true);
    // the recorder sends what it has recorded as the visitor moves about
    await expect(async () => {
      await page.mouse.move(20 + Math.random() * 300, 100 + Math.random() * 300);
      await page.mouse.wheel(0, 200);
      expect(paths().some((path) => path.startsWith('/s/'))).toBe(true);
    }).toPass({ timeout: 15_000 });
    // memory persistence, recording included: PostHog keeps nothing in the browser's storage
    expect((await storageKeys(page)).filter((k) => postHogKey.test(k))).toEqual([]);

    // the browser's own clock: when the load event ended, and when each script was asked for
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        loadEventEnd: navigation.loadEventEnd,
        resources: resources.map((r) => ({ name: r.name, startTime: r.startTime, responseEnd: r.responseEnd })),
      };
    });
    const byName = (pattern: RegExp) => timing.resources.filter((r) => pattern.test(r.name));
    const sdk = byName(/\/assets\/posthogSdk-.*\.js$/)[0];
    const recorder = byName(/\/assets\/posthogRecorder-.*\.js$/)[0];
    if (!sdk || !recorder) throw new Error(`PostHog's chunks were not both fetched: ${JSON.stringify({ sdk, recorder })}`);
    expect(timing.loadEventEnd).toBeGreaterThan(0);
    expect(sdk.startTime).toBeGreaterThanOrEqual(timing.loadEventEnd);
    expect(recorder.startTime).toBeGreaterThanOrEqual(sdk.responseEnd);
    // ICU's start, which PostHog's first event needs, paid by a worker of the page after the load event
    const intlWorker = byName(/\/assets\/intlWarmup\.worker-.*\.js$/)[0];
    if (!intlWorker) throw new Error('the worker that creates the first Intl object off the main thread was not started');
    expect(intlWorker.startTime).toBeGreaterThanOrEqual(timing.loadEventEnd);
    // before the load event: nothing from PostHog's host and no PostHog chunk
    const early = timing.resources.filter((r) => r.startTime < timing.loadEventEnd).map((r) => r.name);
    expect(early.filter((name) => name.includes(POSTHOG_HOST) || /posthog/i.test(name))).toEqual([]);
  });

  test('page views: one for the page loaded, then one per client-side route change', async ({ page }) => {
    const requests = await interceptPostHog(page);
    const pageViews = () => postHogEvents(requests).filter((e) => e.event === '$pageview').map((e) => e.properties.$pathname);
    await page.goto('/');
    await expect.poll(pageViews, { timeout: 10_000 }).toEqual(['/']);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect.poll(pageViews, { timeout: 10_000 }).toEqual(['/', '/privacy']);
    await page.goBack();
    await expect.poll(pageViews, { timeout: 10_000 }).toEqual(['/', '/privacy', '/']);
  });

  test('with GPC on: no PostHog request over a visit and a submission, nothing stored, the notice shown', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
    });
    const requests = await interceptPostHog(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/');
    await expect(page.getByRole('contentinfo').getByText(/Opt-out preference signal honored/)).toBeVisible();
    await page.goto('/privacy');
    await page.getByRole('banner').getByRole('link', { name: 'Request invite' }).click();
    const form = await fillInviteForm(page, uniqueEmail('gpc'));
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    await page.waitForTimeout(1500);

    expect(requests.map((r) => r.url())).toEqual([]);
    expect(scripts.filter((url) => /module\.full|posthog/i.test(url))).toEqual([]);
    expect((await storageKeys(page)).filter((k) => postHogKey.test(k))).toEqual([]);
  });

  test('opting out: confirmation for about 3 s, no PostHog request after it, and "rejected" survives a reload', async ({ page }) => {
    const requests = await interceptPostHog(page);
    await page.goto('/');
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThan(0);

    await page.getByRole('contentinfo').getByRole('button', { name: OPT_OUT }).click();
    const clickedAt = Date.now();
    const afterOptOut = requests.length;
    const status = toastStatus(page);
    await expect(status).toHaveText(CONFIRMATION);
    await expect(status).toHaveText('', { timeout: 5_000 });
    const shownFor = Date.now() - clickedAt;
    expect(shownFor).toBeGreaterThanOrEqual(2_500);
    expect(shownFor).toBeLessThan(4_500);

    // route changes and a page leave after the opt-out send nothing
    await page.getByRole('banner').getByRole('link', { name: 'FAQ' }).click();
    await page.goto('/terms');
    await page.waitForTimeout(1000);
    expect(requests.slice(afterOptOut).map((r) => r.url())).toEqual([]);

    await page.reload();
    expect(await page.evaluate(() => localStorage.getItem('sonde.trackingConsent'))).toBe('rejected');
    await page.waitForTimeout(1500);
    expect(requests.slice(afterOptOut).map((r) => r.url())).toEqual([]);
    expect((await storageKeys(page)).filter((k) => postHogKey.test(k))).toEqual([]);
  });

  test('the toast does not take focus, passes axe, and can be dismissed', async ({ page }) => {
    await interceptPostHog(page);
    await page.goto('/');
    const button = page.getByRole('contentinfo').getByRole('button', { name: OPT_OUT });
    // disabled until the footer has hydrated, so that an early press is not silently lost
    await expect(button).toBeEnabled();
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(toastStatus(page)).toHaveText(CONFIRMATION);
    await expect(button).toBeFocused();
    // axe on the toast alone (every whole page is checked in site.spec.ts): a whole-page run outlasted the
    // toast's 3 s on a busy machine. Its passes name the message: the toast was still shown.
    const axe = await new AxeBuilder({ page })
      .include('[role="status"]')
      .include('button[aria-label="Dismiss"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    const checked = axe.passes.flatMap((rule) => rule.nodes.map((node) => node.html));
    expect(checked.some((html) => html.includes(CONFIRMATION))).toBe(true);
    // opting out again shows it again (3 s from now), and Dismiss closes it before its time
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toastStatus(page)).toHaveText('');
  });

  test('declares GPC support at /.well-known/gpc.json', async ({ request }) => {
    const response = await request.get('/.well-known/gpc.json');
    expect(response.ok()).toBe(true);
    expect(await response.json()).toEqual({ gpc: true, lastUpdate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
  });
});
