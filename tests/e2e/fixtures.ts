import { readFile } from 'node:fs/promises';
import { test as base, expect, type Page } from '@playwright/test';
import { E2E_INBOX_FILE } from './constants';

/** The IP the intercepted lookup service answers in e2e runs (TEST-NET-3). */
export const E2E_CLIENT_IP = '203.0.113.9';


/**
 * Playwright's `test` with the public IP-lookup service (spec §7.2) answered locally, so that no run
 * depends on, or sends anything to, the internet.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    await page.route('https://api.ipify.org/**', (route) => route.fulfill({ json: { ip: E2E_CLIENT_IP } }));
    await use(page);
  },
});

export { expect };

/** Reads the submissions the local inbox stored, one parsed JSON line each. */
export async function storedSubmissions(): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  try {
    const text = await readFile(E2E_INBOX_FILE, 'utf8');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** An email address no other run used, to find this run's line in the inbox. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}+${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
}

/** Fills the invite form's required fields and consent as a visitor would, by label. */
export async function fillInviteForm(page: Page, email: string) {
  const form = page.getByRole('form', { name: 'Request an invite' });
  await form.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
  await form.getByRole('textbox', { name: 'Work email' }).fill(email);
  await form.getByRole('textbox', { name: 'Role / title' }).fill('Staff engineer');
  await form.getByRole('textbox', { name: 'Company', exact: true }).fill('Analytical Engines');
  await form.getByRole('textbox', { name: /What will you build/ }).fill('A research agent that cites fresh sources.');
  await form.getByRole('textbox', { name: 'Estimated monthly queries' }).fill('50M');
  await form.getByRole('textbox', { name: 'Peak queries per second (QPS)' }).fill('1000 QPS');
  await form.getByRole('checkbox', { name: /I agree to be contacted/ }).check();
  return form;
}
