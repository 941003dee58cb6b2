import type { Locator } from '@playwright/test';

/** What a visitor types into the invite form's required text fields (spec §3). */
export interface InviteAnswers {
  fullName: string;
  workEmail: string;
  roleTitle: string;
  companyName: string;
  useCaseDescription: string;
  estimatedMonthlyQueries: string;
  peakQPS: string;
}

/**
 * Fills the required fields of the invite form `form` with `answers` and checks its consent box, as a
 * visitor would, by label (spec §3). Used by the e2e tests (tests/e2e/fixtures.ts) and the benchmark
 * (scripts/bench.mjs).
 */
export async function fillInviteAnswers(form: Locator, answers: InviteAnswers): Promise<void> {
  await form.getByRole('textbox', { name: 'Full name' }).fill(answers.fullName);
  await form.getByRole('textbox', { name: 'Work email' }).fill(answers.workEmail);
  await form.getByRole('textbox', { name: 'Role / title' }).fill(answers.roleTitle);
  await form.getByRole('textbox', { name: 'Company', exact: true }).fill(answers.companyName);
  await form.getByRole('textbox', { name: /What will you build/ }).fill(answers.useCaseDescription);
  await form.getByRole('textbox', { name: 'Estimated monthly queries' }).fill(answers.estimatedMonthlyQueries);
  await form.getByRole('textbox', { name: 'Peak queries per second (QPS)' }).fill(answers.peakQPS);
  await form.getByRole('checkbox', { name: /I agree to be contacted/ }).check();
}
