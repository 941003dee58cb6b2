/** Values the Playwright config and the e2e tests must agree on. */

/** The PostHog host of the analytics build; never resolvable, and every request to it is intercepted. */
export const E2E_POSTHOG_HOST = 'https://posthog.e2e.invalid';
