import type { Page } from '@playwright/test';
import { E2E_CLIENT_IP, expect, storedIdOf, mailTo, nextSubmission, requestsList, storedRow, test, uniqueEmail, webhookDeliveries } from './fixtures';
import { privacyRequestFixedFields } from '../support/submissionBody';

async function fillPrivacyRequest(page: Page, email: string) {
  const form = page.getByRole('form', { name: 'Privacy rights request' });
  // filled at once, as a visitor does, while the form's code may still be hydrating: nothing is lost
  await form.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByRole('checkbox', { name: 'Delete' }).check();
  await form.getByRole('checkbox', { name: 'Data Portability' }).check();
  await form.getByRole('textbox', { name: 'Additional details' }).fill('Account from the 2026 beta.');
  return form;
}

test.describe('privacy rights request in a real browser', () => {
  test('is stored by the server as a privacy request due in 45 days, mapped onto an invite request', async ({ page }) => {
    const email = uniqueEmail('privacy');
    await page.goto('/privacy-request');
    const form = await fillPrivacyRequest(page, email);
    const submission = nextSubmission(page);
    await form.getByRole('button', { name: 'Submit request' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);

    const response = await submission;
    expect(response.status()).toBe(201);
    // The answer's body is not for the page (it reads the status only) and is no-store, so Chromium
    // keeps none of it for the test to read: the id is looked up as the team would, by email.
    const id = await storedIdOf(email);
    const { data } = response.request().postDataJSON() as { data: Record<string, unknown> };
    expect(data).toMatchObject({
      fullName: 'Ada Lovelace',
      ...privacyRequestFixedFields,
      companyName: 'N/A',
      useCaseDescription: 'CCPA Privacy Rights Request\nRequest types: Delete, Data Portability\nDetails: Account from the 2026 beta.',
      consentGiven: true,
      clientIP: E2E_CLIENT_IP,
    });

    const row = await storedRow(id);
    if (row) {
      expect(row).toMatchObject({ kind: 'privacy', email });
      expect(row.body.data).toEqual(data);
      const days = (row.due_at!.getTime() - row.received_at.getTime()) / 86_400_000;
      expect(days).toBe(45);
    }

    const listed = (await requestsList()).find((request) => request.id === id);
    expect(listed).toMatchObject({ kind: 'privacy', email, dueAt: expect.stringMatching(/Z$/) });
    const [delivery] = await webhookDeliveries(id);
    expect(delivery?.body.text).toBe(`Privacy request (Delete, Data Portability) — due ${listed!.dueAt!.slice(0, 10)}`);

    // the confirmation of receipt (11 CCR §7021(a)), written as an .eml file (no SMTP server set)
    const [confirmation] = await mailTo(email);
    expect(confirmation!.mail.subject).toBe('We received your privacy request');
    expect(confirmation!.mail.text).toContain('Request types: Delete, Data Portability');
    const due = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(listed!.dueAt!));
    expect(confirmation!.mail.text).toContain(`Response due by: ${due}`);
  });

  test('a 500 shows the red alert and keeps the form filled', async ({ page }) => {
    await page.route('**/api/submissions', (route) => route.fulfill({ status: 500, body: '' }));
    const email = uniqueEmail('privacy-500');
    await page.goto('/privacy-request');
    const form = await fillPrivacyRequest(page, email);
    await form.getByRole('button', { name: 'Submit request' }).click();

    const alert = page.getByRole('alert');
    await expect(alert).toContainText('HTTP error! status: 500');
    const border = await alert.evaluate((el) => getComputedStyle(el).borderTopColor);
    expect(border).toBe('rgb(185, 28, 28)');
    await expect(page).toHaveURL(/\/privacy-request$/);
    await expect(form.getByRole('textbox', { name: 'Full name' })).toHaveValue('Ada Lovelace');
    await expect(form.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await expect(form.getByRole('checkbox', { name: 'Delete' })).toBeChecked();
    await expect(form.getByRole('textbox', { name: 'Additional details' })).toHaveValue('Account from the 2026 beta.');
    await expect(form.getByRole('button', { name: 'Submit request' })).toBeEnabled();
  });
});
