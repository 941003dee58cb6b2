import { expect, test } from './fixtures';

// The Stately inspector opens https://stately.ai/inspect in a window and posts every inspection event
// to it once that window says '@statelyai.connected'. Here the window is a stand-in that records what
// it is sent, so the test sees exactly what the inspector would show, without the internet.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const opened: string[] = [];
    const received: Array<{ type?: string; name?: string }> = [];
    Object.assign(window, { __inspector: { opened, received } });
    window.open = ((url?: string | URL) => {
      opened.push(String(url));
      return { postMessage: (message: { type?: string; name?: string }) => received.push(message) } as unknown as Window;
    }) as typeof window.open;
  });
});

test('npm run dev with ?inspect connects every running machine to the Stately inspector', async ({ page }) => {
  await page.goto('/?inspect');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => window.postMessage({ type: '@statelyai.connected' }, '*'));
  await page.getByRole('textbox', { name: 'Full name' }).click();
  await page.evaluate(() => window.postMessage({ type: '@statelyai.connected' }, '*'));

  const inspector = await page.evaluate(
    () => (window as unknown as { __inspector: { opened: string[]; received: Array<{ type?: string; name?: string }> } }).__inspector,
  );
  expect(inspector.opened).toEqual(['https://stately.ai/inspect']);
  const actors = new Set(inspector.received.filter((m) => m.type === '@xstate.actor').map((m) => m.name));
  expect([...actors]).toEqual(expect.arrayContaining(['consent', 'optOutToast', 'invite']));
  expect(inspector.received.some((m) => m.type === '@xstate.event')).toBe(true);
});

test('without ?inspect the inspector is not opened', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const opened = await page.evaluate(() => (window as unknown as { __inspector: { opened: string[] } }).__inspector.opened);
  expect(opened).toEqual([]);
});
