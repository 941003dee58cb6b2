import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { TEXT_LIMITS } from '#shared/submission';
import { E2E_EVENTS_SECRET, E2E_SITE_PORT } from './constants';
import { decisionEvents, expect, fillInviteForm, mailTo, nextSubmission, sendInviteForm, storedIdOf, teamCommand, test, uniqueEmail } from './fixtures';

// The team's console in Chromium against the `site` server (what `npm start` runs). WebAuthn takes a
// domain as its relying party, never an IP address: the console is opened at http://localhost, the
// server's default public origin, with the DevTools protocol's virtual authenticator as the member's
// device (DESIGN.md §3: CTAP2, internal, discoverable credentials, user verification done).
const CONSOLE = `http://localhost:${E2E_SITE_PORT}`;

/** A virtual platform authenticator for `page`, as a laptop's: it keeps discoverable credentials and verifies its user. */
async function addPasskeyDevice(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** `team add` for a new member: the link it prints. */
async function enrollmentLink(email: string): Promise<string> {
  const printed = await teamCommand(['team', 'add', email, '--name', 'Kim Lee']);
  const link = new RegExp(`(${CONSOLE}/team/enroll#token=[A-Za-z0-9_-]{43})`).exec(printed)?.[1];
  expect(link, printed).toBeDefined();
  return link!;
}

/**
 * A new member, enrolled through the link of their mail on this page's virtual authenticator, signed in at
 * /team. The mail is awaited first, as the member opens it: registering drops a mail still unsent.
 */
async function enrolledMember(page: Page): Promise<{ email: string; link: string }> {
  const email = uniqueEmail('member');
  const link = await enrollmentLink(email);
  const [mail] = await mailTo(email);
  expect(mail?.mail.text).toContain(link);
  await addPasskeyDevice(page);
  // a document of its own: from /team/enroll itself, a link that differs by its fragment would not load the page again
  await page.goto('about:blank');
  await page.goto(link);
  // the token leaves the address bar before anything else of the page runs
  await expect(page).toHaveURL(`${CONSOLE}/team/enroll`);
  await page.getByRole('button', { name: 'Create a passkey for this device' }).click();
  await expect(page).toHaveURL(`${CONSOLE}/team`);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return { email, link };
}

/** Opens the request sent from `email` from the queue, found by the search box. */
async function openFromQueue(page: Page, email: string, name: string): Promise<void> {
  await page.goto(`${CONSOLE}/team`);
  await page.getByRole('searchbox', { name: 'Search' }).or(page.getByRole('textbox', { name: 'Search' })).fill(email);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Presses a decision's button, checks the mail it previews, and confirms it. */
async function decide(page: Page, button: string, mail: { to: string; subject: string } | null): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  const preview = page.getByRole('region', { name: new RegExp(`^${button}`) });
  if (mail) {
    const mails = preview.getByRole('list', { name: 'Mails it will send' });
    await expect(mails).toContainText(mail.to);
    await expect(mails).toContainText(mail.subject);
  } else {
    await expect(preview).toContainText('No mail is sent.');
  }
  await preview.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(preview.getByRole('status')).toContainText('Done.');
  await preview.getByRole('button', { name: 'Close' }).click();
}

/** Presses Tab until `target` has the focus, as a keyboard user moves; fails after `MAX_TABS` presses. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  const MAX_TABS = 60;
  for (let i = 0; i < MAX_TABS; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`no focus on ${target.toString()} after ${MAX_TABS} presses of Tab`);
}

/**
 * Whether the page at its current viewport overflows sideways, and where each table's State, Verification
 * and Due header cells end (CSS px from the left; -1 when the table has no such column).
 */
async function horizontalFit(page: Page): Promise<{ scrollWidth: number; innerWidth: number; stateColumnsEnd: number[] }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    stateColumnsEnd: [...document.querySelectorAll('table')].flatMap((table) =>
      [...table.querySelectorAll('th')]
        .filter((th) => ['State', 'Verification', 'Due'].includes(th.textContent?.trim() ?? ''))
        .map((th) => th.getBoundingClientRect().right),
    ),
  }));
}

/** Asserts that nothing of the page is off screen sideways: no horizontal scroll, every State, Verification and Due column within the viewport. */
async function expectNoHorizontalOverflow(page: Page, screen: string): Promise<void> {
  const fit = await horizontalFit(page);
  expect(fit.scrollWidth, `${screen}: the document's width at ${fit.innerWidth} px`).toBeLessThanOrEqual(fit.innerWidth);
  for (const end of fit.stateColumnsEnd) expect(end, `${screen}: a State, Verification or Due column's right edge`).toBeLessThanOrEqual(fit.innerWidth);
}

/** How many times slower than this machine the CPU runs in the slow-device scenario (Chrome DevTools' "4x slowdown"). */
const SLOW_CPU_RATE = 4;

test.describe("the team's console", () => {
  test('team add prints and mails a link; the mailed link registers a passkey, once; the member signs out, then in with one button', async ({ page }) => {
    const { link } = await enrolledMember(page);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    // the session is gone on the server: nobody signed in, and the queue refused
    expect((await page.request.get(`${CONSOLE}/api/team/session`)).status()).toBe(204);
    expect((await page.request.get(`${CONSOLE}/api/team/requests`)).status()).toBe(401);

    // the link is spent
    await page.goto(link);
    await page.getByRole('button', { name: 'Create a passkey for this device' }).click();
    await expect(page.getByText(/used|expired/i).first()).toBeVisible();

    await page.goto(`${CONSOLE}/team`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible();
  });

  test('an invite request sent from the form is in the queue; accepted into a new cohort, its mail shown first; the applicant is mailed and the API gets a signed event', async ({ page }) => {
    const applicant = uniqueEmail('console-invite');
    const { submission } = await sendInviteForm(page, applicant);
    expect((await submission).status()).toBe(201);
    const id = await storedIdOf(applicant);

    await enrolledMember(page);
    const cohort = `Cohort ${Date.now()}`;
    await page.getByRole('link', { name: 'Cohorts' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill(cohort);
    await page.getByLabel('Start date').fill('2027-01-15');
    await page.getByRole('spinbutton', { name: /Capacity/ }).or(page.getByRole('textbox', { name: /Capacity/ })).fill('25');
    await page.getByRole('button', { name: 'Create cohort' }).click();
    await expect(page.getByText(cohort).first()).toBeVisible();

    await openFromQueue(page, applicant, 'Ada Lovelace');
    await expect(page.getByText('A research agent that cites fresh sources.')).toBeVisible();
    await page.getByRole('combobox', { name: 'Cohort' }).selectOption(cohort);
    await decide(page, 'Accept', { to: applicant, subject: "You're in: welcome to the Sonde beta" });

    const mails = await mailTo(applicant, 2);
    const accepted = mails.find(({ mail }) => mail.subject === "You're in: welcome to the Sonde beta");
    expect(accepted?.mail.text).toContain(cohort);
    expect(accepted?.mail.text).toContain('January 15, 2027');
    const [event] = await decisionEvents(id);
    expect(new Webhook(E2E_EVENTS_SECRET).verify(event!.body, event!.headers)).toMatchObject({ type: 'invite.accepted', data: { requestId: id, cohort: { name: cohort, startsOn: '2027-01-15' } } });
    // the timeline names the member and the decision
    await page.reload();
    await expect(page.getByText(/accepted/i).first()).toBeVisible();
    await expect(page.getByText('Kim Lee').first()).toBeVisible();
  });

  test('a privacy request is marked verified, extended with its notice, and responded to from the console', async ({ page }) => {
    const requester = uniqueEmail('console-privacy');
    await page.goto('/privacy-request');
    const form = page.getByRole('form', { name: 'Privacy rights request' });
    await form.getByRole('textbox', { name: 'Full name' }).fill('Grace Hopper');
    await form.getByRole('textbox', { name: 'Email' }).fill(requester);
    await form.getByRole('checkbox', { name: 'Delete' }).check();
    const submission = nextSubmission(page);
    await form.getByRole('button', { name: 'Submit request' }).click();
    expect((await submission).status()).toBe(201);

    await enrolledMember(page);
    await openFromQueue(page, requester, 'Grace Hopper');
    await decide(page, 'Mark verified', null);
    await page.getByRole('textbox', { name: /Reason for the extension/ }).fill('Our backups take two weeks to search.');
    await decide(page, 'Extend by 45 days', { to: requester, subject: 'We need more time' });
    await page.getByRole('radio', { name: 'Complied with in full' }).check();
    await decide(page, 'Respond', { to: requester, subject: 'Our answer to your privacy request' });

    const subjects = (await mailTo(requester, 3)).map(({ mail }) => mail.subject);
    expect(subjects).toEqual(expect.arrayContaining(['We received your privacy request', 'Our answer to your privacy request']));
    const shown = JSON.parse(await teamCommand(['show', await storedIdOf(requester)])) as { verification: string; outcome: string; history: Array<{ event: string; by?: string }> };
    expect(shown).toMatchObject({ verification: 'verified', outcome: 'complied' });
    expect(shown.history.map((entry) => entry.event)).toEqual(expect.arrayContaining(['verified', 'extended', 'responded']));
  });

  test(`by keyboard alone, with the CPU ${SLOW_CPU_RATE}x slower: sign in, search the queue, move to a request, open it, waitlist it after reading its mail`, async ({ page }) => {
    const applicant = uniqueEmail('console-keyboard');
    const { submission } = await sendInviteForm(page, applicant);
    expect((await submission).status()).toBe(201);
    await enrolledMember(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_CPU_RATE });
    await page.goto(`${CONSOLE}/team`);
    const signIn = page.getByRole('button', { name: 'Sign in with a passkey' });
    await tabTo(page, signIn);
    // as the visitor sees it: the button can be pressed once the console has started and checked the session
    await expect(signIn).toHaveAttribute('aria-disabled', 'false');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible();
    await tabTo(page, page.getByRole('textbox', { name: 'Search' }).or(page.getByRole('searchbox', { name: 'Search' })));
    await page.keyboard.type(applicant);
    const row = page.getByRole('row').filter({ hasText: 'Ada Lovelace' });
    await expect(row).toHaveCount(1);
    await tabTo(page, row);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Waitlist', exact: true }));
    await page.keyboard.press('Enter');
    const preview = page.getByRole('region', { name: /^Waitlist/ });
    await expect(preview.getByRole('list', { name: 'Mails it will send' })).toContainText('Your Sonde invite request: on the waitlist');
    await tabTo(page, preview.getByRole('button', { name: 'Confirm and send' }));
    await page.keyboard.press('Enter');
    await expect(preview.getByRole('status')).toContainText('Done.');
    const mails = await mailTo(applicant, 2);
    expect(mails.map(({ mail }) => mail.subject)).toContain('Your Sonde invite request: on the waitlist');
  });

  test('a request with unbroken text as long as the form allows in every field wraps: no sideways scroll, State, Verification and Due on screen, at 375 and 1280 px', async ({ page }) => {
    // one "word" per field, as long as the field takes, with no space or hyphen to break at
    const word = (letter: string, length: number = TEXT_LIMITS.short) => letter.repeat(length);
    const prefix = uniqueEmail('wrap').split('@')[0]!.replaceAll('-', '');
    const domain = '@example.com';
    const applicant = (prefix + word('e', TEXT_LIMITS.email)).slice(0, TEXT_LIMITS.email - domain.length) + domain;
    const name = word('N');
    const website = `https://${word('w', TEXT_LIMITS.url - 'https://.example'.length)}.example`;
    await page.goto('/#invite');
    const form = await fillInviteForm(page, applicant);
    await form.getByRole('textbox', { name: 'Full name' }).fill(name);
    await form.getByRole('textbox', { name: 'Role / title' }).fill(word('R'));
    await form.getByRole('textbox', { name: 'Company', exact: true }).fill(word('C'));
    await form.getByRole('textbox', { name: 'Company website' }).fill(website);
    await form.getByRole('textbox', { name: /What will you build/ }).fill(word('U'));
    await form.getByRole('textbox', { name: 'Estimated monthly queries' }).fill(word('M'));
    await form.getByRole('textbox', { name: 'Peak queries per second (QPS)' }).fill(word('P'));
    await form.getByRole('textbox', { name: 'Target latency' }).fill(word('L'));
    await form.getByRole('textbox', { name: 'Key regions and languages' }).fill(word('K'));
    await form.getByRole('textbox', { name: 'Budget range' }).fill(word('B'));
    await form.getByRole('textbox', { name: 'Anything else?' }).fill(word('A'));
    const submission = nextSubmission(page);
    await form.getByRole('button', { name: 'Request invite' }).click();
    expect((await submission).status()).toBe(201);

    await enrolledMember(page);
    // found by the address's unique start: the search box takes fewer characters than the address has
    const search = async () => {
      await page.goto(`${CONSOLE}/team`);
      await page.getByRole('textbox', { name: 'Search' }).or(page.getByRole('searchbox', { name: 'Search' })).fill(prefix);
      const row = page.getByRole('row').filter({ hasText: name });
      await expect(row).toHaveCount(1);
      return row;
    };
    await (await search()).getByRole('link', { name }).click();
    await page.getByRole('textbox', { name: 'Reason told to the applicant (optional)' }).fill(word('D'));
    await decide(page, 'Decline', { to: applicant, subject: 'Your Sonde invite request' });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const row = await search();
      await expectNoHorizontalOverflow(page, `the queue at ${width} px`);
      await row.getByRole('link', { name }).click();
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(page.getByText(word('D')).first()).toBeVisible();
      await expectNoHorizontalOverflow(page, `the request's page at ${width} px`);
    }
  });

  for (const width of [1280, 375]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`axe finds no WCAG 2.2 AA violation on the console's screens at ${width} px in the ${scheme} scheme`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        const check = async (screen: string) => {
          const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
          expect(results.violations.map((v) => `${screen}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        };
        await page.goto(`${CONSOLE}/team`);
        await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
        await check('sign-in');
        await page.goto(`${CONSOLE}/team/enroll`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await check('enrollment without a link');
        await enrolledMember(page);
        await expect(page.getByRole('row').nth(1)).toBeVisible();
        await check('queue');
        await page.getByRole('row').nth(1).getByRole('link').first().click(); // the name; a repeated request links its first too
        await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
        await check('request');
        await page.getByRole('link', { name: 'Cohorts' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Cohorts' })).toBeVisible();
        await check('cohorts');
      });
    }
  }
});
