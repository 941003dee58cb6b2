import { screen, within } from '@testing-library/dom';
import type { UserEvent } from '@testing-library/user-event';
import type { InvitePayload } from '#shared/submission';
import { getAllByRoleNamed } from './support/named';

/** What a visitor types in the invite form in most tests. */
export const visitor = {
  fullName: 'Ada Lovelace',
  workEmail: 'ada@example.com',
  roleTitle: 'Staff engineer',
  companyName: 'Analytical Engines',
  useCaseDescription: 'Research agent that cites fresh sources.',
  estimatedMonthlyQueries: '5M',
  peakQPS: '100 QPS',
};

/** The payload those answers give (spec §3): no optional field, no checkbox. */
export const visitorPayload: InvitePayload = {
  ...visitor,
  primaryWorkloads: [],
  mustHaveCapabilities: [],
  consentGiven: true,
};

/** The invite form on the page. */
export function inviteFormElement(): HTMLElement {
  return screen.getByRole('form', { name: 'Request an invite' });
}

/** The invite form's required text fields (spec §3), each as its label and the answer in `values`. */
export function requiredInviteAnswers(values: typeof visitor): Array<[label: string, answer: string]> {
  return [
    ['Full name', values.fullName],
    ['Work email', values.workEmail],
    ['Role / title', values.roleTitle],
    ['Company', values.companyName],
    ['What will you build with Sonde?', values.useCaseDescription],
    ['Estimated monthly queries', values.estimatedMonthlyQueries],
    ['Peak queries per second (QPS)', values.peakQPS],
  ];
}

/** Fills the required fields (and ticks consent) as a visitor would. */
export async function fillRequiredInviteFields(user: UserEvent, answers: Partial<typeof visitor> = {}) {
  const formElement = inviteFormElement();
  const values = { ...visitor, ...answers };
  // Every field is found before the first keystroke, in one pass: typing re-renders the form, which
  // empties jsdom's cache of computed styles, and each look-up by role and name would compute them all again.
  const answered = requiredInviteAnswers(values);
  const boxes = getAllByRoleNamed(formElement, 'textbox', answered.map(([name]) => name));
  const fields = answered.map(([, value], at) => [boxes[at]!, value] as const);
  const form = within(formElement);
  const consent = form.getByRole('checkbox', {
    name: 'I agree to be contacted about the beta and accept the trial terms/privacy policy.',
  });
  for (const [field, value] of fields) await user.type(field, value);
  await user.click(consent);
}

/** The invite form's submit button, whatever it reads. */
export function inviteSubmitButton(): HTMLElement {
  return within(inviteFormElement()).getByRole('button', { name: /Request invite|Submitting/ });
}
