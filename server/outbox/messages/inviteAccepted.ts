import { INVITE_NEXT_STEPS } from '#shared/inviteSteps';
import { html, letter, longDate, para, siteSignature, type MailContent, type MessageFacts } from './layout.ts';

/** The third step /thank-you promises (spec §2): "Approved applicants are placed in a cohort and given API credentials." */
const COHORT_STEP = INVITE_NEXT_STEPS[2];

/**
 * To the work email of an accepted invite request ("you're in"): the cohort it was placed in and the
 * day that cohort starts, and that the API credentials follow from the API's onboarding: the third step
 * /thank-you promised (spec §2, "You join a cohort"), now kept. The cohort's name is the team's text
 * (`requests cohort add`), never the visitor's; nothing the visitor typed is stated.
 * @param facts - `cohort`: its name; `startsOn`: its first day, `YYYY-MM-DD` (stated as a long date, in UTC)
 */
export function inviteAccepted(facts: Pick<MessageFacts, 'siteUrl'> & { cohort: string; startsOn: string }): MailContent {
  const subject = "You're in: welcome to the Sonde beta";
  const starts = longDate(new Date(`${facts.startsOn}T00:00:00Z`));
  return letter(subject, [
    para`Good news: we reviewed your request for an invite to the Sonde beta, and you're in.`,
    {
      text: `${COHORT_STEP.body} Your cohort is ${facts.cohort}; it starts on ${starts}.`,
      html: html`<p>${COHORT_STEP.body} Your cohort is <strong>${facts.cohort}</strong>; it starts on <strong>${starts}</strong>.</p>`,
    },
    para`Your API credentials will follow from our API onboarding. You do not need to do anything until then.`,
    siteSignature(facts.siteUrl),
  ]);
}
