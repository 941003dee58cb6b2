import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const routes = ['/', '/privacy', '/privacy-request', '/privacy-request/verify', '/terms', '/thank-you', '/no-such-page'];

/**
 * Every console error and uncaught error of a page, and every warning Chromium gives about the server's
 * headers (a Permissions-Policy or Content-Security-Policy it cannot parse or does not know).
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
    else if (message.type() === 'warning' && /Permissions-Policy|Content-Security-Policy/.test(message.text())) errors.push(`warning: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Holds back a page's chunk (one per route, e.g. `Home`, `Terms`) by `ms` ms, as a slow network would. */
async function holdBackPageChunk(page: Page, chunk: string, ms: number): Promise<void> {
  await page.route(new RegExp(`/assets/${chunk}-[\\w-]+\\.js$`), async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

test.describe('every route in a real browser', () => {
  for (const route of routes) {
    test(`${route} loads with its heading, no console error and no warning about its headers`, async ({ page }) => {
      const errors = watchErrors(page);
      const response = await page.goto(route);
      if (route === '/no-such-page') {
        // an unknown path is answered 404 with the not-found page; Chromium logs that 404 itself, once,
        // and that one line is the only console error allowed
        expect(response?.status()).toBe(404);
        const notFoundLog = 'Failed to load resource: the server responded with a status of 404 (Not Found)';
        expect(errors.filter((error) => error === notFoundLog)).toHaveLength(1);
        errors.splice(errors.indexOf(notFoundLog), 1);
      } else {
        expect(response?.status()).toBe(200);
      }
      // spec-independent hardening (server/http/securityHeaders.ts): the page runs under a strict policy
      // scripts: the site's own files, and the inline entry loader by its hash (scripts/build.mjs entryLoader)
      expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+;/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      expect(errors).toEqual([]);
    });
  }

  test('clicking Pricing on /privacy lands on /#pricing with the section in view', async ({ page }) => {
    await page.goto('/privacy');
    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/#pricing$/);
    await expect(page.locator('#pricing')).toBeInViewport();
  });

  test('a client-side navigation to /#pricing scrolls there even when the home page arrives late', async ({ page }) => {
    // the home page's chunk comes in after the 100 ms before the scroll (spec §2)
    await holdBackPageChunk(page, 'Home', 500);
    await page.goto('/privacy-request');
    // its submit button is enabled once the page is hydrated, so the click below is the router's
    await expect(page.getByRole('button', { name: 'Submit request' })).toBeEnabled();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/#pricing$/);
    await expect(page.locator('#pricing')).toBeInViewport();
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
  });

  test('opening /#faq directly scrolls to the FAQ', async ({ page }) => {
    await page.goto('/#faq');
    await expect(page.locator('#faq')).toBeInViewport();
  });

  test('browsing every route sends no request off this machine', async ({ page }) => {
    const offMachine: string[] = [];
    page.on('request', (request) => {
      const { hostname, protocol } = new URL(request.url());
      if (protocol !== 'data:' && hostname !== '127.0.0.1') offMachine.push(request.url());
    });
    for (const route of routes) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
    }
    expect(offMachine).toEqual([]);
  });
});

test.describe('prerendered pages', () => {
  const titles: Record<string, string> = {
    '/': 'Web search built for agents, not browsers',
    '/privacy': 'Privacy Policy',
    '/privacy-request': 'Privacy rights request',
    '/privacy-request/verify': 'Confirm your privacy request',
    '/terms': 'Terms of Service',
    '/thank-you': 'Request received',
    '/no-such-page': 'Page not found',
  };

  test('every route shows its content before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [route, heading] of Object.entries(titles)) {
      await page.goto(route);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.getByRole('contentinfo')).toContainText('Do Not Sell or Share My Personal Information');
    }
    // Before hydration a submit would be the browser's own GET, with the visitor's answers in the URL.
    await page.goto('/');
    await expect(page.getByRole('form', { name: 'Request an invite' }).getByRole('button', { name: 'Request invite' })).toBeDisabled();
    // the opt-out button too: before hydration a click on it would do nothing
    await expect(page.getByRole('contentinfo').getByRole('button', { name: 'Do Not Sell or Share My Personal Information' })).toBeDisabled();
    // and the estimator's slider, which the page's first script enables: without it, a move would change nothing
    await expect(page.getByRole('slider', { name: /^Queries per month/ })).toBeDisabled();
    await page.goto('/privacy-request');
    await expect(page.getByRole('button', { name: 'Submit request' })).toBeDisabled();
    await context.close();
  });

  test('the page preloads its chunks once it has painted, and those of its later parts at low priority after the load event, each once', async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/assets/')) requested.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('load');
    const chunks = await page.locator('#root').evaluate((root) => ({
      page: (root.dataset.pageChunks ?? '').split(' ').filter(Boolean),
      deferred: (root.dataset.deferredChunks ?? '').split(' ').filter(Boolean),
    }));
    expect(chunks.page.length).toBeGreaterThan(0);
    expect(chunks.deferred.length).toBeGreaterThan(0);
    const preloads = page.locator('link[rel="modulepreload"]');
    // one link each, the later parts' last (they are preloaded one task after another)
    await expect(preloads.locator(`xpath=self::*[@href="${chunks.deferred.at(-1)}"]`)).toHaveCount(1);
    const links = await preloads.evaluateAll((elements) => elements.map((link) => ({ href: link.getAttribute('href'), fetchPriority: (link as HTMLLinkElement).fetchPriority })));
    for (const href of chunks.page) expect(links.filter((link) => link.href === href), href).toEqual([{ href, fetchPriority: 'auto' }]);
    for (const href of chunks.deferred) expect(links.filter((link) => link.href === href), href).toEqual([{ href, fetchPriority: 'low' }]);
    // the app's chunks come in whole: hydrated, the estimator's queries field is editable
    await expect(page.getByRole('textbox', { name: 'Queries per month' })).toBeEditable();
    for (const href of [...chunks.page, ...chunks.deferred]) expect(requested.filter((path) => path === href), href).toHaveLength(1);
  });

  test('pointing at a link fetches its page before the click, and the click shows it', async ({ page }) => {
    await page.goto('/privacy-request');
    // its submit button is enabled once the page is hydrated, after the links' listeners are in place
    await expect(page.getByRole('button', { name: 'Submit request' })).toBeEnabled();
    const termsLink = page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' });
    const chunk = page.waitForRequest(/\/assets\/Terms-[\w-]+\.js$/);
    await termsLink.hover();
    await chunk;
    await termsLink.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeFocused();
  });

  test('going back before the next page has come in shows the page gone back to', async ({ page }) => {
    // /terms's chunk is held back, so the visitor goes back while <main> is still waiting for it
    await holdBackPageChunk(page, 'Terms', 800);
    await page.goto('/privacy-request');
    await expect(page.getByRole('button', { name: 'Submit request' })).toBeEnabled();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/privacy-request$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit request' })).toBeEnabled();
  });

  for (const address of ['/', '/#faq']) {
    test(`a visitor who scrolled on at ${address} before the app hydrated stays where they are, and their click lands`, async ({ page }) => {
      // The app's chunk is held until the visitor has scrolled to the footer, as on a slow phone. Hydration
      // used to scroll the page load back to the top (or to its #section), so a click aimed at the footer
      // hit whatever took its place there (in CI, a footer link that did nothing).
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/hydrate-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(address);
      const optOut = page.getByRole('contentinfo').getByRole('button', { name: 'Do Not Sell or Share My Personal Information' });
      await optOut.scrollIntoViewIfNeeded();
      const scrolledTo = await page.evaluate(() => window.scrollY);
      expect(scrolledTo).toBeGreaterThan(1000);
      release();
      // the opt-out button is enabled once the layout has hydrated and its effects have run; a scroll to
      // the section would start 100 ms later (spec §2) and take a few hundred more
      await expect(optOut).toBeEnabled();
      await page.waitForTimeout(1000);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);
      await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
      // a navigation without a hash still starts at the top of the new page
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    });
  }

  test('the document title follows client-side navigation, with one <title> in the page', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Sonde — web search API for agentic AI');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
    await expect(page).toHaveTitle('Privacy Policy — Sonde');
    expect(await page.locator('title').count()).toBe(1);
  });

  test('a trailing slash redirects to the page’s one address', async ({ page }) => {
    const response = await page.goto('/terms/');
    expect(response?.url()).toMatch(/\/terms$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
  });

  test('the server answers the discovery files, the share image and the icons with their types', async ({ request }) => {
    const expected: Record<string, RegExp> = {
      '/sitemap.xml': /^application\/xml/,
      '/robots.txt': /^text\/plain/,
      '/llms.txt': /^text\/plain/,
      '/llms-full.txt': /^text\/plain/,
      '/.well-known/security.txt': /^text\/plain/,
      '/site.webmanifest': /^application\/manifest\+json/,
      '/share.png': /^image\/png$/,
      '/icon-192.png': /^image\/png$/,
      '/icon-512.png': /^image\/png$/,
      '/apple-touch-icon.png': /^image\/png$/,
    };
    for (const [path, type] of Object.entries(expected)) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()['content-type'], path).toMatch(type);
    }
    // a share preview fetches the image named in og:image, on the page's own origin
    const home = await (await request.get('/')).text();
    expect(/<meta property="og:image" content="https:\/\/sonde\.dev\/share\.png"/.test(home)).toBe(true);
  });
});

test.describe('accessibility', () => {
  for (const width of [375, 1280]) {
    for (const route of routes) {
      test(`axe finds no WCAG 2.2 AA violation on ${route} at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(route);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        const results = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
          .analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });
    }
  }

  for (const scheme of ['light', 'dark'] as const) {
    test(`colour contrast holds in the ${scheme} scheme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const route of ['/', '/privacy-request']) {
        await page.goto(route);
        const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
        expect(results.violations.map((v) => v.nodes.map((n) => n.target.join(' ')).join(', '))).toEqual([]);
      }
    });
  }

  test('a keyboard user reaches the header, every home link and button, then the footer, with visible focus', async ({ page }) => {
    await page.goto('/');
    const reached: string[] = [];
    for (let i = 0; i < 200; i += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return {
          name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' '),
          visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        };
      });
      if (!focused) break;
      expect(focused.visible, `focus is visible on "${focused.name}"`).toBe(true);
      reached.push(focused.name);
    }
    expect(reached.slice(0, 5)).toEqual(['Skip to content', 'Sonde', 'Pricing', 'FAQ', 'Request invite']);
    expect(reached).toContain('Request an invite');
    expect(reached).toContain('See pricing');
    expect(reached).toContain('Privacy Policy');
    expect(reached).toContain('Terms of Service');
    expect(reached).toContain('Do Not Sell or Share My Personal Information');
    // the footer's Request invite link is the last stop: header CTA, form submit button, footer link
    expect(reached.filter((name) => name === 'Request invite')).toHaveLength(3);
    expect(reached.at(-1)).toBe('Request invite');
  });

  test('the skip link moves focus to the main content', async ({ page }) => {
    await page.goto('/terms');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
  });

  test('printing /privacy gives the text alone: no header, footer or buttons, and each link\'s target after it', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.locator('header')).toBeVisible();
    await expect(page.locator('button:visible')).not.toHaveCount(0);
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('header')).toBeHidden();
    await expect(page.locator('footer')).toBeHidden();
    await expect(page.locator('button:visible')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    const link = page.getByRole('main').getByRole('link', { name: 'Submit a privacy request' });
    expect(await link.evaluate((a) => getComputedStyle(a, '::after').content)).toBe('" (/privacy-request)"');
    // the table of contents' in-page anchors print as they are
    const anchor = page.getByRole('navigation', { name: 'Sections' }).getByRole('link').first();
    expect(await anchor.evaluate((a) => getComputedStyle(a, '::after').content)).toBe('none');
  });
});
