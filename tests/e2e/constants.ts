/** Values the Playwright config and the e2e tests must agree on. */

/** The PostHog host of the analytics build; never resolvable, and every request to it is intercepted. */
export const E2E_POSTHOG_HOST = 'https://posthog.e2e.invalid';

/** Where the e2e servers' local inbox appends submissions. */
export const E2E_INBOX_FILE = '.e2e/inbox/submissions.jsonl';
