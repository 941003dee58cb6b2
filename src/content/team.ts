// The team console's words (src/app/team/, src/components/team/, src/pages/team/), in one place for the
// views and their tests.

/** The console's name, in its header and its pages' titles. */
export const CONSOLE_NAME = 'Sonde team console';

/** The command a teammate runs on the server to add a member (server/cli: `team add`). */
export const ADD_MEMBER_COMMAND = 'npm run requests -- team add <email>';

/** The command a teammate runs on the server for a new enrollment link (server/cli: `team link`). */
export const NEW_LINK_COMMAND = 'npm run requests -- team link <email>';

/**
 * The console's page head (src/entry-server.tsx): its title and `noindex`. Not in src/content/pageMeta.ts,
 * whose table is in the site's app: the public routes' first load carries none of the console.
 */
export const teamPageMeta = {
  title: CONSOLE_NAME,
  description: 'Where the Sonde team answers invite and privacy requests. Members sign in with a passkey.',
};

export const frameCopy = {
  skipLink: 'Skip to content',
  nav: 'Console',
  queue: 'Queue',
  cohorts: 'Cohorts',
  signedInAs: 'Signed in as',
  signOut: 'Sign out',
  signingOut: 'Signing out…',
};

export const signInCopy = {
  title: 'Sign in to the team console',
  intro: 'The console is for the team that answers invite and privacy requests. Members sign in with a passkey: there is no password.',
  button: 'Sign in with a passkey',
  checking: 'Checking your session…',
  waiting: 'Waiting for your passkey…',
  access: 'No passkey yet? Ask a teammate to run',
  accessAfter: 'on the server: it makes a link that registers a passkey on your device.',
};

export const enrollCopy = {
  title: 'Create your passkey',
  intro:
    'This link adds a passkey for the Sonde team console to this device. Your device will ask you to confirm with your fingerprint, face, PIN or security key; the passkey stays on the device, and the console never sees a password. The link works once, within 24 hours.',
  button: 'Create a passkey for this device',
  registering: 'Waiting for your passkey…',
  noTokenTitle: 'This address carries no enrollment link',
  noToken: 'Open the link exactly as you received it, or ask a teammate for a new one: they run',
  goneTitle: 'This link can no longer be used',
  gone: 'It was used already, it expired (links last 24 hours), or it was replaced. Ask a teammate for a new one: they run',
  signIn: 'Go to sign-in',
};

export const notFoundCopy = {
  title: 'No such page in the console',
  body: 'The address does not match a page of the team console.',
  back: 'Back to the queue',
};
