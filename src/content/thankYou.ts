/** Thank-you page copy (spec §2). */
export const thankYou = {
  title: 'Request received',
  intro: 'Thanks for your interest in the beta. Here is what happens next.',
  steps: [
    { title: 'We review your request', body: 'Our team reads every request and checks your workload against the current beta capacity.' },
    { title: 'We reach out when ready', body: 'When we are ready to onboard you, we contact you at the email address you gave us.' },
    { title: 'You join a cohort', body: 'Approved applicants are placed in a cohort and given API credentials.' },
  ],
  rollingNote: 'Applications are processed on a rolling basis.',
  backHome: 'Back to home',
} as const;
