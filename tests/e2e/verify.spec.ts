import { gunzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { expect, interceptPostHog, requestsList, smtpMailTo, storedIdOf, teamCommand, test, uniqueEmail } from './fixtures';

// 11 CCR §7060, §7062: a privacy request sent from the form, its confirmation received by a
// real SMTP server, its verification link opened and confirmed in Chromium, then answered and extended
// with the team's command line. Runs on the `analytics` server (PostHog on, mail over SMTP, PGlite).

// the public origin: http://localhost:PORT on a default start (server/config.ts publicOriginOf), where passkeys work
const LINK = /(http:\/\/(?:localhost|127\.0\.0\.1):\d+\/privacy-request\/verify)#token=([A-Za-z0-9_-]{43})/;

/** What a PostHog request carried: its URL and its body, gunzipped when compressed. */
function sentToPostHog(request: Request): string {
  const body = request.postDataBuffer();
  if (!body) return request.url();
  const text = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body).toString('utf8') : body.toString('utf8');
  return `${request.url()}\n${text}`;
}

/** Sends a privacy request from the form, as a visitor does, and waits for /thank-you. */
async function sendPrivacyRequest(page: Page, email: string, types: string[]) {
  await page.goto('/privacy-request');
  const form = page.getByRole('form', { name: 'Privacy rights request' });
  await expect(form.getByRole('button', { name: 'Submit request' })).toBeEnabled();
  await form.getByRole('textbox', { name: 'Full name' }).fill('Grace <script>alert(1)</script> https://evil.example/');
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  for (const type of types) await form.getByRole('checkbox', { name: type }).check();
  await form.getByRole('textbox', { name: 'Additional details' }).fill('Visit https://evil.example/win now');
  await form.getByRole('button', { name: 'Submit request' }).click();
  await expect(page).toHaveURL(/\/thank-you$/);
}

/** The verification link of the confirmation mailed to `email`, once it arrived at the SMTP server. */
async function linkMailedTo(email: string): Promise<{ link: string; page: string; token: string; text: string }> {
  const [confirmation] = await smtpMailTo(email);
  expect(confirmation, `the confirmation mailed to ${email}`).toBeDefined();
  expect(confirmation!.subject).toBe('We received your privacy request');
  const match = LINK.exec(confirmation!.text ?? '');
  expect(match, 'a verification link in the confirmation').not.toBeNull();
  return { link: match![0], page: match![1]!, token: match![2]!, text: confirmation!.text ?? '' };
}

test.describe('verifying a privacy request by its link (11 CCR §7060)', () => {
  test('form → confirmation over SMTP → link → "Confirm it\'s me" by keyboard → verified; again: already confirmed; then respond and extend mail the requester', async ({ page, context }) => {
    const postHog = await interceptPostHog(page);
    // React reports a hydration problem (a mismatch, an update to a part not yet hydrated) as a console error
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const email = uniqueEmail('verify');
    await sendPrivacyRequest(page, email, ['Access/Know', 'Data Portability']);
    const id = await storedIdOf(email, 'analytics');
    const { link, page: pageUrl, token, text } = await linkMailedTo(email);
    // the mail quotes nothing the visitor typed
    expect(text).not.toMatch(/Grace|<script>|evil\.example/);

    // a link cut short (a mail client wrapped it): unknown, and what there was of it leaves the address bar
    await page.goto(`${pageUrl}#token=${token.slice(0, 30)}`);
    await expect(page.getByRole('heading', { level: 2, name: 'This link is unknown or has expired' })).toBeVisible();
    expect(page.url()).toBe(pageUrl);
    // the whole link pasted into the same tab (a fragment change: nothing reloads) is a page of its own
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your privacy request' })).toBeVisible();
    const summary = page.getByLabel('The request this link confirms');
    await expect(summary).toContainText('Access/Know, Data Portability');
    await expect(summary).toContainText(new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date()));
    // the token left the address bar before anything could record the address
    expect(page.url()).toBe(pageUrl);
    // opening the link verified nothing: a mail scanner does this much
    expect((await requestsList('analytics')).find((r) => r.id === id)?.verification).toBe('unverified');
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // by keyboard alone: Tab reaches the button, Enter presses it
    const confirm = page.getByRole('button', { name: "Confirm it's me" });
    await expect(confirm).toBeEnabled();
    for (let i = 0; i < 20 && !(await confirm.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Enter');
    const confirmed = page.getByRole('heading', { level: 2, name: 'Thank you: your request is confirmed' });
    await expect(confirmed).toBeFocused();
    expect((await requestsList('analytics')).find((r) => r.id === id)?.verification).toBe('verified');
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // a reload keeps the token (in the history entry), and says it is done
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'This request is already confirmed' })).toBeVisible();
    // the link opened a second time, in another tab
    const again = await context.newPage();
    await again.goto(link);
    await expect(again.getByRole('heading', { level: 2, name: 'This request is already confirmed' })).toBeVisible();
    await again.close();

    expect(errors).toEqual([]);
    // PostHog ran (the analytics build), and nothing it was sent holds the token
    await expect.poll(() => postHog.some((r) => new URL(r.url()).pathname.startsWith('/e/')), { timeout: 15_000 }).toBe(true);
    for (const request of postHog) expect(sentToPostHog(request)).not.toContain(token);

    // answered with the requester's data, now that they are verified
    await teamCommand(['respond', id, '--outcome', 'complied', '--attach-subject'], 'analytics');
    const outcome = (await smtpMailTo(email, 2)).find((mail) => mail.subject === 'Our answer to your privacy request');
    expect(outcome, 'the outcome mail').toBeDefined();
    expect(outcome!.attachments.map((a) => a.filename)).toEqual(['sonde-personal-information.json']);
    const data = JSON.parse(outcome!.attachments[0]!.content.toString('utf8')) as { email: string; requests: Array<{ id: string }> };
    expect(data).toMatchObject({ email: email.toLowerCase(), requests: [{ id }] });
    // once answered, the link says it is no longer good (a new tab, as a mail client opens it)
    const late = await context.newPage();
    await late.goto(link);
    await expect(late.getByRole('heading', { level: 2, name: 'This link is unknown or has expired' })).toBeVisible();
  });

  test('a link that no longer works (its request answered) says so and how to ask again; extend moves the due date 45 days on and mails the notice', async ({ page }) => {
    const email = uniqueEmail('verify-late');
    await sendPrivacyRequest(page, email, ['Delete']);
    const id = await storedIdOf(email, 'analytics');
    const { link } = await linkMailedTo(email);

    const before = (await requestsList('analytics')).find((r) => r.id === id)!;
    await teamCommand(['extend', id, '--reason', 'Our backups take two weeks to search.'], 'analytics');
    const after = (await requestsList('analytics')).find((r) => r.id === id)!;
    expect(new Date(after.dueAt!).getTime() - new Date(before.dueAt!).getTime()).toBe(45 * 86_400_000);
    const notice = (await smtpMailTo(email, 2)).find((mail) => mail.subject === 'We need more time to answer your privacy request');
    expect(notice?.text).toContain('Why: Our backups take two weeks to search.');

    // the request is answered, which ends its link as its due date would (the server's tests cover the
    // due date itself: only the server may open its PGlite, and the command line changes no date)
    await teamCommand(['respond', id, '--outcome', 'denied', '--reason', 'We could not confirm the request in time.'], 'analytics');
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 2, name: 'This link is unknown or has expired' })).toBeVisible();
    expect(page.url()).not.toContain('#token=');
    await page.getByRole('link', { name: 'Send a new privacy request' }).click();
    await expect(page).toHaveURL(/\/privacy-request$/);
    expect((await requestsList('analytics')).find((r) => r.id === id)?.verification).toBe('unverified');
  });
});

test.describe('the verification token leaves the address on every route, before analytics loads (11 CCR §7060)', () => {
  const token = 'Tk'.repeat(21) + 'x'; // 43 characters of base64url, known to no request
  for (const address of [`/privacy-request/verify.html#token=${token}`, `/privacy-request/verify#%74oken=${token}`, `/#%74oken=${token}`, `/terms#token=${token}`]) {
    test(`${address.replace(token, '…')}: not in the address bar, and no PostHog request carries it`, async ({ page }) => {
      const postHog = await interceptPostHog(page);
      await page.goto(address);
      await expect(page).toHaveURL((url) => url.hash === '' && !url.href.includes(token));
      // PostHog ran (its first event was sent), with the address as it is now
      await expect.poll(() => postHog.some((r) => new URL(r.url()).pathname.startsWith('/e/')), { timeout: 15_000 }).toBe(true);
      for (const request of postHog) expect(sentToPostHog(request)).not.toContain(token);
    });
  }
});
