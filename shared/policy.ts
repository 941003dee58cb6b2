/**
 * The promises of the privacy policy (spec §9) that both the site's copy (src/content/) and the
 * server (server/: `due_at`, retention) keep. One definition, so the policy and the code agree.
 */

/** Where privacy requests and questions go (spec §9): the policy names it, the server's mail replies to it. */
export const PRIVACY_EMAIL = 'privacy@sonde.dev';

/** Spec §9: retention and age figures quoted by the privacy policy. */
export const RETENTION = {
  /** beta application data kept up to this many months */
  applicationMonths: 18,
  /** browser fingerprints (browserId) kept up to this many months */
  browserFingerprintMonths: 24,
  /** records of privacy requests kept this many months (CCPA regulations, 11 CCR § 7101) */
  privacyRequestRecordMonths: 24,
  /** privacy requests answered within this many days */
  privacyResponseDays: 45,
  /** the service is not for people under this age */
  minimumAge: 18,
} as const;
