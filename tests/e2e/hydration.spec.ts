import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Runs against the production build (`site` project) and the Vite dev server (`dev` project, which answers
// an address with `?prerender` with the page prerendered, scripts/devPrerender.ts): React's development
// build reports every hydration mismatch on the console, the production build a recoverable error
// (reportError: an uncaught error event) when it had to render a part afresh.
const routes = ['/', '/privacy', '/privacy-request', '/privacy-request/verify', '/terms', '/thank-you', '/no-such-page'];

/**
 * Every console error and uncaught error of a page, and any warning about hydration; not Chromium's own
 * line for a 404 answer, nor its warnings about the server's headers (Permissions-Policy features it
 * does not know).
 */
function watchConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' ? !/hydrat/i.test(message.text()) : message.type() !== 'error') return;
    if (message.text().startsWith('Failed to load resource: the server responded with a status of 404')) return;
    messages.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => messages.push(`uncaught: ${error.message}`));
  return messages;
}

/**
 * Waits until every part of the page has hydrated: each of its buttons is enabled once its part has, and
 * the cost estimator's queries field can be written in once the estimator has (its slider is enabled
 * before, by the page's first script).
 */
async function waitForHydration(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Do Not Sell or Share My Personal Information' })).toBeEnabled();
  for (const name of ['Request invite', 'Submit request']) {
    const submit = page.locator('main').getByRole('button', { name, exact: true });
    if (await submit.count()) await expect(submit).toBeEnabled();
  }
  const queries = page.locator('main').getByRole('textbox', { name: 'Queries per month' });
  if (await queries.count()) await expect(queries).toBeEditable();
  await page.waitForLoadState('networkidle');
}

/** The head's elements that must exist once per page: the title, each named meta, the canonical link. */
async function headTagCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const counts: Record<string, number> = {};
    for (const element of document.head.querySelectorAll('title, meta[name], meta[property], link[rel="canonical"]')) {
      const key = element.tagName === 'TITLE' ? 'title' : element.tagName === 'LINK' ? 'canonical' : `${element.getAttribute('name') ?? element.getAttribute('property')}${element.getAttribute('media') ?? ''}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  });
}

function duplicates(counts: Record<string, number>): string[] {
  return Object.entries(counts)
    .filter(([, count]) => count > 1)
    .map(([key, count]) => `${key} ×${count}`);
}

test.describe('hydration in Chromium', () => {
  test.describe.configure({ timeout: 90_000 }); // the dev server compiles each module on its first request

  for (const route of routes) {
    test(`${route} hydrates with no mismatch, no recoverable error and one of each head tag`, async ({ page }) => {
      const messages = watchConsole(page);
      await page.goto(`${route}?prerender`);
      await waitForHydration(page);
      expect(messages).toEqual([]);
      // the page loaded at its address: nothing took focus, no heading was made focusable by script
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
      await expect(page.locator('main h1')).not.toHaveAttribute('tabindex');
      expect(duplicates(await headTagCounts(page))).toEqual([]);

      // after a client-side navigation the head is the next page's, still one of each
      const target = route === '/terms' ? 'Privacy Policy' : 'Terms of Service';
      await page.getByRole('contentinfo').getByRole('link', { name: target }).click();
      await expect(page.locator('main h1')).toHaveText(target);
      await expect(page).toHaveTitle(new RegExp(`^${target}`));
      expect(duplicates(await headTagCounts(page))).toEqual([]);
      expect(messages).toEqual([]);
    });
  }
});
