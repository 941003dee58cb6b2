import type { Page, Request, Route } from '@playwright/test';
import { expect, fillInviteForm, requestsList, test, uniqueEmail } from './fixtures';

/**
 * Issue #12's fault table, as a visitor lives it, in Chromium against the Sonde server (server/main.ts):
 * the first attempts are held, failed or cut by `page.route`; every later one reaches the real server,
 * whose database is then asked (`npm run requests -- list`) how many requests it stored.
 */

const SUBMISSIONS = '**/api/submissions';

/** How many requests the server stored for `email`, once that is `expected` (the outbox retries on its own clock). */
async function expectStored(email: string, expected: number) {
  await expect
    .poll(async () => (await requestsList()).filter((request) => request.email === email).length, { timeout: 30_000, intervals: [1_000] })
    .toBe(expected);
}

/** Every submission request the page sends, with its Idempotency-Key. */
function watchSubmissions(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/submissions')) sent.push(request);
  });
  return sent;
}

async function submitInvite(page: Page, email: string) {
  await page.goto('/#invite');
  const form = await fillInviteForm(page, email);
  await form.getByRole('button', { name: 'Request invite' }).click();
}

test.describe('no request lost, no visitor stuck (issue #12)', () => {
  test('endpoint hanging: the invite visitor reaches /thank-you within 11 s; the request is stored once the endpoint answers', async ({ page }) => {
    test.setTimeout(60_000);
    const email = uniqueEmail('hanging');
    const held: Route[] = [];
    let hanging = true;
    await page.route(SUBMISSIONS, async (route) => {
      if (hanging) held.push(route); // never answered: the endpoint hangs
      else await route.continue();
    });
    const sent = watchSubmissions(page);

    await page.goto('/#invite');
    const form = await fillInviteForm(page, email);
    const started = Date.now();
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Request received' })).toBeVisible({ timeout: 11_000 });
    expect(Date.now() - started).toBeLessThan(11_000);

    hanging = false;
    await expectStored(email, 1);
    const keys = new Set(sent.map((request) => request.headers()['idempotency-key']));
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(keys.size).toBe(1); // every attempt carried the same key
  });

  test('503 then 201: the invite visitor goes to /thank-you at once, and the server stores the request exactly once', async ({ page }) => {
    const email = uniqueEmail('503');
    let failures = 1;
    await page.route(SUBMISSIONS, async (route) => {
      if (failures-- > 0) await route.fulfill({ status: 503, headers: { 'Retry-After': '1' }, body: '' });
      else await route.continue();
    });
    const sent = watchSubmissions(page);
    const stored = page.waitForResponse((response) => response.url().endsWith('/api/submissions') && response.status() === 201, { timeout: 20_000 });

    await submitInvite(page, email);
    await expect(page).toHaveURL(/\/thank-you$/);
    await stored;
    await expectStored(email, 1);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers()['idempotency-key']).toBe(sent[0]!.headers()['idempotency-key']);
    expect(sent[1]!.postData()).toBe(sent[0]!.postData()); // the same body, byte for byte
  });

  test('offline, then online: the request kept while offline is sent as soon as the browser is back online', async ({ page, context }) => {
    const email = uniqueEmail('offline');
    await page.goto('/#invite');
    const form = await fillInviteForm(page, email);
    await context.setOffline(true);
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    const stored = page.waitForResponse((response) => response.url().endsWith('/api/submissions') && response.status() === 201);
    await context.setOffline(false);
    await stored;
    await expectStored(email, 1);
  });

  test('the server down for the whole visit: the next page load sends what the last one kept', async ({ page, context }) => {
    const email = uniqueEmail('next-load');
    await page.route(SUBMISSIONS, (route) => route.fulfill({ status: 503, body: '' }));
    await submitInvite(page, email);
    await expect(page).toHaveURL(/\/thank-you$/);
    // kept in IndexedDB under sonde.outbox
    await expect
      .poll(() => page.evaluate(() => new Promise<number>((resolve) => {
        const open = indexedDB.open('keyval-store');
        open.onsuccess = () => {
          const read = open.result.transaction('keyval').objectStore('keyval').get('sonde.outbox');
          read.onsuccess = () => resolve(Array.isArray(read.result) ? read.result.length : 0);
          read.onerror = () => resolve(-1);
        };
        open.onerror = () => resolve(-1);
      })))
      .toBe(1);
    await page.close();

    const next = await context.newPage();
    const stored = next.waitForResponse((response) => response.url().endsWith('/api/submissions') && response.status() === 201);
    await next.goto('/terms');
    await stored;
    await expectStored(email, 1);
  });

  test('privacy request, 503: the red box says it is saved; an unchanged retry reuses its key and is stored once', async ({ page }) => {
    const email = uniqueEmail('privacy-503');
    let failures = 1;
    await page.route(SUBMISSIONS, async (route) => {
      if (failures-- > 0) await route.fulfill({ status: 503, body: '' });
      else await route.continue();
    });
    const sent = watchSubmissions(page);
    await page.goto('/privacy-request');
    const form = page.getByRole('form', { name: 'Privacy rights request' });
    await form.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByRole('checkbox', { name: 'Delete' }).check();
    await form.getByRole('button', { name: 'Submit request' }).click();

    await expect(page.getByRole('alert')).toContainText(
      'HTTP error! status: 503. Your request is saved and will be sent again; you can also try now.',
    );
    await expect(form.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await form.getByRole('button', { name: 'Submit request' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    await expectStored(email, 1);
    // the outbox's own retry of the kept copy, if it has run, was answered from the first one
    expect(new Set(sent.map((request) => request.headers()['idempotency-key'])).size).toBe(1);
  });
});
