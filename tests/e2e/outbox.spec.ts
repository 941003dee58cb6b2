import type { Page, Request, Route } from '@playwright/test';
import { E2E_CLIENT_IP, expect, fillInviteForm, requestsList, test, uniqueEmail } from './fixtures';

/**
 * The fault table of the README's "No request lost", as a visitor lives it, in Chromium against the Sonde server (server/main.ts):
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

/** How many submissions this page's origin keeps in IndexedDB (idb-keyval's store, key sonde.outbox); -1 when unreadable. */
function keptInIndexedDb(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('keyval-store');
        open.onsuccess = () => {
          const read = open.result.transaction('keyval').objectStore('keyval').get('sonde.outbox');
          read.onsuccess = () => resolve(Array.isArray(read.result) ? read.result.length : 0);
          read.onerror = () => resolve(-1);
        };
        open.onerror = () => resolve(-1);
      }),
  );
}

async function submitInvite(page: Page, email: string) {
  await page.goto('/#invite');
  const form = await fillInviteForm(page, email);
  await form.getByRole('button', { name: 'Request invite' }).click();
}

test.describe('no request lost, no visitor stuck', () => {
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
    await expect.poll(() => keptInIndexedDb(page))
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

  test('a 400 is not retried: one POST, nothing kept, the invite visitor still on /thank-you', async ({ page }) => {
    await page.route(SUBMISSIONS, (route) => route.fulfill({ status: 400, json: { error: 'data.workEmail: Invalid email address' } }));
    const sent = watchSubmissions(page);
    await submitInvite(page, uniqueEmail('400'));
    await expect(page).toHaveURL(/\/thank-you$/);
    await page.waitForTimeout(4_000); // longer than the first retry's wait (1–2 s)
    expect(sent).toHaveLength(1);
    expect(await keptInIndexedDb(page)).toBe(0);
  });

  test('the IP-lookup service hanging: the request leaves within 5 s with clientIP null, and is stored', async ({ page }) => {
    await page.unroute('https://api.ipify.org/**');
    await page.route('https://api.ipify.org/**', () => {}); // never answered
    const email = uniqueEmail('ip-hanging');
    const stored = page.waitForResponse((response) => response.url().endsWith('/api/submissions') && response.status() === 201, { timeout: 8_000 });
    await submitInvite(page, email);
    const response = await stored;
    expect((response.request().postDataJSON() as { data: { clientIP: unknown } }).data.clientIP).toBeNull();
    await expect(page).toHaveURL(/\/thank-you$/);
    await expectStored(email, 1);
  });

  test('storage throwing everywhere: the request is still sent again while the page stays open', async ({ page }) => {
    await page.addInitScript(() => {
      const refuse = () => {
        throw new DOMException('blocked', 'SecurityError');
      };
      Object.defineProperty(window, 'indexedDB', { get: refuse });
      Storage.prototype.setItem = refuse;
    });
    const email = uniqueEmail('no-storage');
    let failures = 1;
    await page.route(SUBMISSIONS, async (route) => {
      if (failures-- > 0) await route.fulfill({ status: 503, body: '' });
      else await route.continue();
    });
    await submitInvite(page, email);
    await expect(page).toHaveURL(/\/thank-you$/);
    await expectStored(email, 1);
  });
});

/** How many times slower than this machine the CPU runs in the slow-device scenarios (Chrome DevTools' "4x slowdown"). */
const SLOW_CPU_RATE = 4;

/** How many visits, each closed the moment /thank-you shows, the tab-close scenario makes before the next visit. */
const CLOSED_TAB_ROUNDS = 5;

test.describe('a kept request survives the tab closing as /thank-you shows (spec §4: navigate whatever the result)', () => {
  test(`CPU ${SLOW_CPU_RATE}x slower, the POST failing or unanswered, the tab closed at /thank-you, ${CLOSED_TAB_ROUNDS} rounds: the next page load delivers every request exactly once`, async ({
    context,
  }) => {
    test.setTimeout(180_000);
    await context.route('https://api.ipify.org/**', (route) => route.fulfill({ json: { ip: E2E_CLIENT_IP } }));
    // The server is out of reach for the whole visit: 503, a connection cut without an answer, or no
    // answer at all (the form gives up after SUBMIT_TIMEOUT_MS).
    const failures = ['503', 'connection cut', '503', 'connection cut', 'no answer'] as const;
    let serverDown = true;
    const held: Route[] = [];
    let round = 0;
    await context.route(SUBMISSIONS, async (route) => {
      if (!serverDown) return route.continue();
      const failure = failures[round % failures.length];
      if (failure === '503') return route.fulfill({ status: 503, body: '' });
      if (failure === 'connection cut') return route.abort('connectionreset');
      held.push(route); // never answered
    });
    const slowPage = async () => {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_CPU_RATE });
      return page;
    };

    const emails: string[] = [];
    for (round = 0; round < CLOSED_TAB_ROUNDS; round += 1) {
      const email = uniqueEmail(`closed-tab-${round}`);
      emails.push(email);
      const page = await slowPage();
      await page.goto('/#invite');
      const form = await fillInviteForm(page, email);
      await form.getByRole('button', { name: 'Request invite' }).click();
      await page.waitForURL(/\/thank-you$/, { waitUntil: 'commit', timeout: 20_000 });
      await page.close(); // the visitor closes the tab at once
    }

    serverDown = false;
    const next = await slowPage();
    await next.goto('/terms');
    await expect
      .poll(async () => (await requestsList()).filter((request) => emails.includes(request.email)).map((request) => request.email).sort(), {
        message: `requests of the ${CLOSED_TAB_ROUNDS} closed tabs stored`,
        timeout: 30_000,
        intervals: [1_000],
      })
      .toEqual([...emails].sort());
    await next.waitForTimeout(2_000); // any further attempt would have been made by now: still once each
    const stored = (await requestsList()).filter((request) => emails.includes(request.email));
    expect(stored).toHaveLength(CLOSED_TAB_ROUNDS);
  });
});

test.describe('drafts and validation', () => {
  test('fill, go to /terms in the same tab, come back: every value restored; once sent, the draft is gone', async ({ page }) => {
    const email = uniqueEmail('draft');
    await page.goto('/#invite');
    const form = await fillInviteForm(page, email);
    await form.getByRole('checkbox', { name: 'RAG', exact: true }).check();
    await form.getByRole('textbox', { name: 'Anything else?' }).fill('Kept across pages');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await page.goBack();

    const back = page.getByRole('form', { name: 'Request an invite' });
    await expect(back.getByRole('textbox', { name: 'Work email' })).toHaveValue(email);
    await expect(back.getByRole('textbox', { name: 'Peak queries per second (QPS)' })).toHaveValue('1000 QPS');
    await expect(back.getByRole('textbox', { name: 'Anything else?' })).toHaveValue('Kept across pages');
    await expect(back.getByRole('checkbox', { name: 'RAG', exact: true })).toBeChecked();
    await expect(back.getByRole('checkbox', { name: /I agree to be contacted/ })).toBeChecked();

    await back.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    expect(await page.evaluate(() => sessionStorage.getItem('sonde.draft.invite'))).toBeNull();
    await expectStored(email, 1);
  });

  test('a required field of only spaces is refused by the browser, with its usual message; nothing is sent', async ({ page }) => {
    const sent = watchSubmissions(page);
    await page.goto('/#invite');
    const form = await fillInviteForm(page, uniqueEmail('blank'));
    const fullName = form.getByRole('textbox', { name: 'Full name' });
    await fullName.fill('   ');
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/#invite$/);
    expect(await fullName.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('Please fill out this field.');
    await expect(fullName).toBeFocused();
    expect(sent).toHaveLength(0);
  });

  test('a filled honeypot sends nothing and still shows /thank-you', async ({ page }) => {
    const sent = watchSubmissions(page);
    await page.goto('/#invite');
    const form = await fillInviteForm(page, uniqueEmail('bot'));
    await form.getByLabel('Leave this field empty').fill('https://spam.example', { force: true });
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Request received' })).toBeFocused();
    expect(sent).toHaveLength(0);
  });
});
