import { Webhook } from 'standardwebhooks';
import { E2E_EVENTS_SECRET } from './constants';
import { decisionEvents, expect, mailTo, sendInviteForm, storedIdOf, teamCommand, test, uniqueEmail } from './fixtures';

test.describe("the team's decision on an invite request", () => {
  test('a request sent from the form, accepted into a cohort from the command line: the applicant is mailed, the API gets a signed invite.accepted, show has the timeline', async ({ page }) => {
    const email = uniqueEmail('decision');
    const { submission } = await sendInviteForm(page, email);
    await expect(page).toHaveURL(/\/thank-you$/);
    expect((await submission).status()).toBe(201);
    const id = await storedIdOf(email);

    const cohort = `Cohort ${Date.now()}`;
    expect(await teamCommand(['cohort', 'add', cohort, '--starts', '2027-01-15', '--capacity', '25'])).toContain(`cohort "${cohort}" added`);
    expect(await teamCommand(['accept', id, '--cohort', cohort, '--by', 'kim'])).toContain(`request ${id} accepted by kim into ${cohort}`);

    // the applicant: the acknowledgment, then the acceptance with the cohort and its start date (.eml, no SMTP server set)
    const mails = await mailTo(email, 2);
    const accepted = mails.find(({ mail }) => mail.subject === "You're in: welcome to the Sonde beta");
    expect(accepted, mails.map(({ mail }) => mail.subject).join(', ')).toBeDefined();
    expect(accepted!.mail.text).toContain(cohort);
    expect(accepted!.mail.text).toContain('January 15, 2027');
    expect(accepted!.mail.text).not.toContain('A research agent that cites fresh sources.');

    // the API's onboarding: one signed invite.accepted, verified with the Standard Webhooks library
    const [event] = await decisionEvents(id);
    expect(event, 'a signed event about the request').toBeDefined();
    expect(new Webhook(E2E_EVENTS_SECRET).verify(event!.body, event!.headers)).toEqual({
      type: 'invite.accepted',
      timestamp: expect.any(String),
      data: { requestId: id, workEmail: email, company: 'Analytical Engines', cohort: { name: cohort, startsOn: '2027-01-15' }, decidedAt: expect.any(String) },
    });

    // the team: the timeline in show
    const shown = JSON.parse(await teamCommand(['show', id])) as { state: string; cohort: string; timeline: Array<Record<string, string>> };
    expect(shown).toMatchObject({ state: 'accepted', cohort });
    expect(shown.timeline.map((entry) => entry.event)).toEqual(expect.arrayContaining(['received', 'mail', 'accepted', 'signed event']));
    expect(shown.timeline.find((entry) => entry.event === 'accepted')).toMatchObject({ by: 'kim', from: 'received', to: 'accepted', cohort });
  });
});
