import { E2E_CLIENT_IP, expect, storedIdOf, fillInviteForm, mailTo, nextSubmission, requestsList, storedRow, test, uniqueEmail, webhookDeliveries } from './fixtures';

test.describe('invite request against the Sonde server', () => {
  test('a visitor fills the form, lands on /thank-you, and the server stores the submission', async ({ page }) => {
    const email = uniqueEmail('invite');
    await page.goto('/#invite');
    const form = await fillInviteForm(page, email);
    await form.getByRole('textbox', { name: /Company website/ }).fill('https://analytical.example');
    await form.getByRole('checkbox', { name: 'RAG', exact: true }).check();
    await form.getByRole('checkbox', { name: 'Streaming results' }).check();
    await form.getByLabel('Desired start date').fill('2027-02-01');
    const submission = nextSubmission(page);
    await form.getByRole('button', { name: 'Request invite' }).click();

    await expect(page).toHaveURL(/\/thank-you$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Request received' })).toBeVisible();

    const response = await submission;
    expect(response.status()).toBe(201);
    // The answer's body is not for the page (it reads the status only) and is no-store, so Chromium
    // keeps none of it for the test to read: the id is looked up as the team would, by email.
    const id = await storedIdOf(email);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const { data, event } = response.request().postDataJSON() as { event: string; data: Record<string, unknown> };
    expect(event).toBe('invite_request');
    expect(data).toMatchObject({
      fullName: 'Ada Lovelace',
      roleTitle: 'Staff engineer',
      companyName: 'Analytical Engines',
      websiteUrl: 'https://analytical.example',
      useCaseDescription: 'A research agent that cites fresh sources.',
      primaryWorkloads: ['RAG'],
      mustHaveCapabilities: ['Streaming results'],
      estimatedMonthlyQueries: '50M',
      peakQPS: '1000 QPS',
      desiredStartDate: '2027-02-01',
      consentGiven: true,
      clientIP: E2E_CLIENT_IP,
      browserLanguage: expect.any(String),
      timezone: expect.any(String),
      screenResolution: expect.stringMatching(/^\d+x\d+$/),
      browserId: expect.stringMatching(/^sonde_[0-9a-f]{16}_/),
    });
    for (const key of ['targetLatency', 'keyRegionsLanguages', 'budgetRange', 'notes']) expect(data).not.toHaveProperty(key);

    const row = await storedRow(id);
    if (row) {
      expect(row).toMatchObject({ kind: 'invite', email, due_at: null });
      expect(row.body).toEqual({ event: 'invite_request', data });
    }

    // the team sees it: in their command line, and announced on their webhook
    expect(await requestsList()).toEqual(expect.arrayContaining([expect.objectContaining({ id, kind: 'invite', email })]));
    const deliveries = await webhookDeliveries(id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.body).toEqual({
      text: 'New invite request: Ada Lovelace (Staff engineer, Analytical Engines) — 50M queries/month',
      mrkdwn: false,
      unfurl_links: false,
      unfurl_media: false,
      submissionId: id,
      kind: 'invite',
    });

    // and the visitor hears back: the acknowledgment, written as an .eml file (no SMTP server set)
    const [ack] = await mailTo(email);
    expect(ack?.file).toMatch(/^[0-9a-f-]{36}\.eml$/);
    expect(ack!.mail.subject).toBe('We received your request for a Sonde invite');
    expect(ack!.mail.text).toContain('Applications are processed on a rolling basis.');
    expect(ack!.mail.text).not.toContain('Ada Lovelace');
  });

  test('the browser refuses an invalid email and sends nothing', async ({ page }) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await page.goto('/#invite');
    const form = await fillInviteForm(page, 'not-an-email');
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/#invite$/);
    const valid = await form.getByRole('textbox', { name: 'Work email' }).evaluate((el) => (el as HTMLInputElement).validity.valid);
    expect(valid).toBe(false);
    expect(posts).toEqual([]);
  });

  test('reaches /thank-you even when the endpoint fails (spec §4, §8)', async ({ page }) => {
    await page.route('**/api/submissions', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/#invite');
    const form = await fillInviteForm(page, uniqueEmail('invite-500'));
    await form.getByRole('button', { name: 'Request invite' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
  });
});
