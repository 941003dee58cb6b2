import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The cost estimator of the pricing section (spec §2 section 3, §9) in Chromium, on the production build.

const estimator = (page: Page) => page.getByRole('form', { name: 'Estimate your cost' });
const queriesField = (page: Page) => estimator(page).getByRole('textbox', { name: 'Queries per month' });
const slider = (page: Page) => estimator(page).getByRole('slider', { name: 'Queries per month, 100k to 10B' });
const result = (page: Page) => estimator(page).locator('output');
const inviteForm = (page: Page) => page.getByRole('form', { name: 'Request an invite' });

/**
 * The estimator's code loads after the load event; its queries field can be written in once it has
 * hydrated (its slider works from the page's first script, before that).
 */
async function waitForEstimator(page: Page) {
  await expect(queriesField(page)).toBeEditable();
}

/** Presses Tab until `target` has focus (at most `max` times), as a keyboard user gets there. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached with ${max} presses of Tab`);
}

/** Whether the focused element shows a focus ring the visitor can see. */
async function focusVisible(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const style = getComputedStyle(element);
    return element === document.activeElement && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  });
}

test.describe('cost estimator', () => {
  test('keeps a move of the slider made before its code has come in: the estimator takes it when it hydrates', async ({ page }) => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/Estimator-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/');
    // enabled by the page's first script, before hydration; the field stays read-only until then
    await expect(slider(page)).toBeEnabled();
    await expect(queriesField(page)).not.toBeEditable();
    await slider(page).focus();
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight');
    await expect(result(page)).toContainText('For 5M queries a month:'); // nothing follows it yet
    release();
    await waitForEstimator(page);
    await expect(queriesField(page)).toHaveValue('10M');
    await expect(result(page)).toHaveText(/For 10M queries a month:\s*\$2,000 a month\s*\$24,000 a year/);
    await expect(slider(page)).toHaveAttribute('aria-valuetext', '10 million queries');
    await expect(page).toHaveURL(/\/\?queries=10M#pricing$/);
    await expect(slider(page)).toBeFocused();
  });

  test('works by keyboard alone: typing, the slider, the peak, and the hand-over to the invite form', async ({ page }) => {
    await page.goto('/');
    await waitForEstimator(page);
    await expect(result(page)).toHaveText(/For 5M queries a month:\s*\$1,000 a month\s*\$12,000 a year\s*about 1\.9 QPS on average/);

    await tabTo(page, queriesField(page));
    expect(await focusVisible(queriesField(page))).toBe(true);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('12M');
    await expect(result(page)).toHaveText(/\$2,400 a month\s*\$28,800 a year\s*about 4\.6 QPS on average/);
    await expect(page).toHaveURL(/\/\?queries=12M#pricing$/);

    await page.keyboard.press('Tab');
    await expect(slider(page)).toBeFocused();
    expect(await focusVisible(slider(page))).toBe(true);
    await expect(slider(page)).toHaveAttribute('aria-valuetext', '12 million queries');
    await page.keyboard.press('ArrowRight');
    await expect(slider(page)).toHaveAttribute('aria-valuetext', '15 million queries');
    await expect(queriesField(page)).toHaveValue('15M');
    await expect(result(page)).toContainText('$3,000 a month');
    await page.keyboard.press('End');
    await expect(queriesField(page)).toHaveValue('10B');
    await page.keyboard.press('Home');
    await expect(queriesField(page)).toHaveValue('100k');
    await expect(result(page)).toContainText('$20 a month');

    await tabTo(page, estimator(page).getByRole('textbox', { name: 'Peak QPS' }));
    await page.keyboard.type('300');
    await page.keyboard.press('Tab');
    await page.keyboard.type('25');
    await expect(queriesField(page)).toHaveValue('194.4M');
    await expect(result(page)).toContainText('$38,880 a month');

    const link = estimator(page).getByRole('link', { name: 'Request an invite with this estimate' });
    await tabTo(page, link);
    expect(await focusVisible(link)).toBe(true);
    await page.keyboard.press('Enter');
    const queries = inviteForm(page).getByRole('textbox', { name: 'Estimated monthly queries' });
    await expect(queries).toHaveValue('194.4M');
    await expect(queries).toBeFocused();
    await expect(queries).toBeInViewport();
    await expect(inviteForm(page).getByRole('textbox', { name: 'Peak queries per second (QPS)' })).toHaveValue('300 QPS');
  });

  test('follows the button to the invite form with 12M in it, keeping what the visitor typed there', async ({ page }) => {
    await page.goto('/');
    await waitForEstimator(page);
    const fullName = inviteForm(page).getByRole('textbox', { name: 'Full name' });
    await expect(inviteForm(page).getByRole('button', { name: 'Request invite' })).toBeEnabled();
    await fullName.fill('Ada Lovelace');
    await queriesField(page).fill('12M');
    await estimator(page).getByRole('link', { name: 'Request an invite with this estimate' }).click();
    await expect(inviteForm(page).getByRole('textbox', { name: 'Estimated monthly queries' })).toHaveValue('12M');
    await expect(fullName).toHaveValue('Ada Lovelace');
    // the draft (sessionStorage) has both, so a reload loses neither
    await page.waitForTimeout(700);
    await page.reload();
    await expect(inviteForm(page).getByRole('button', { name: 'Request invite' })).toBeEnabled();
    await expect(inviteForm(page).getByRole('textbox', { name: 'Estimated monthly queries' })).toHaveValue('12M');
    await expect(fullName).toHaveValue('Ada Lovelace');
  });

  test('a shared address restores the estimate; an unreadable one is ignored', async ({ page }) => {
    await page.goto('/?queries=12M#pricing');
    await waitForEstimator(page);
    await expect(queriesField(page)).toHaveValue('12M');
    await expect(result(page)).toContainText('$2,400 a month');
    await expect(estimator(page)).toBeInViewport();

    await page.goto('/?queries=a-lot#pricing');
    await waitForEstimator(page);
    await expect(queriesField(page)).toHaveValue('5M');
    await expect(queriesField(page)).not.toHaveAttribute('aria-invalid');
    await expect(result(page)).toContainText('$1,000 a month');
  });

  test('axe finds nothing, with a problem shown next to the field, in both colour schemes', async ({ page }) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/');
      await waitForEstimator(page);
      await queriesField(page).fill('plenty');
      await expect(estimator(page).getByText('Write a number of queries, like 12M')).toBeVisible();
      await estimator(page).getByRole('textbox', { name: 'Peak QPS' }).fill('fast');
      const results = await new AxeBuilder({ page })
        .include('#pricing')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(results.violations.map((v) => `${scheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });

  test('nothing moves when it hydrates a shared estimate or when the figure grows (CLS 0)', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/?queries=1000B#pricing');
    await waitForEstimator(page);
    await expect(queriesField(page)).toHaveValue('1,000B');
    await expect(result(page)).toContainText('$2,400,000,000 a year');
    const shifts = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
              if (!entry.hadRecentInput) total += entry.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 500);
        }),
    );
    expect(shifts).toBe(0);
    // the largest figure fits its line at 320-ish widths: nothing cut off
    expect(await result(page).evaluate((output) => [...output.querySelectorAll('*')].every((line) => line.scrollWidth <= line.clientWidth || line.clientWidth === 0))).toBe(true);

    // where the next section starts on the page, whatever the scroll
    const faqTop = () => page.locator('#faq').evaluate((faq) => faq.getBoundingClientRect().top + window.scrollY);
    const before = await faqTop();
    await queriesField(page).fill('100k');
    await queriesField(page).fill('nonsense');
    await expect(estimator(page).getByText('Write a number of queries, like 12M')).toBeVisible();
    expect(await faqTop()).toBe(before);
  });

  test('scrolls to the invite form at once when the visitor prefers reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await waitForEstimator(page);
    await expect(inviteForm(page).getByRole('button', { name: 'Request invite' })).toBeEnabled();
    // the click and the measurement in one task: a smooth scroll would still be at its start
    const inView = await page.evaluate(() => {
      const link = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Request an invite with this estimate')!;
      link.click();
      const field = document.querySelector<HTMLInputElement>('input[name="estimatedMonthlyQueries"]')!;
      const box = field.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
  });
});
