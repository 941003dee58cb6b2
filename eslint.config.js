import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** React and its bindings: never in machines, services, the server or shared/. */
const REACT = ['react', 'react-*', '@xstate/react'];
// In these gitignore-style patterns `#` starts a comment: `\\#machines/*` matches `#machines/…`.
/** A relative path that climbs out of its folder: use the aliases instead. */
const ACROSS_FOLDERS = ['../*', '../../*'];

/**
 * The decision charts: the machines of the team's rules, which the server asks (XState's pure functions)
 * as the site asks its own. They import only xstate and #shared, so that no client code reaches the server.
 */
const DECISION_CHARTS = ['inviteReviewMachine', 'privacyCourseMachine'];
/** What no server file imports: React, the client (`@/`, src/) and the machines' folder, except the decision charts by alias. */
const SERVER_OUTSIDE = [...REACT, '@/*', '\\#machines/*', ...DECISION_CHARTS.map((name) => `!\\#machines/${name}`), '../src/*', '../machines/*', '../../src/*', '../../machines/*'];
/** A sibling server folder, from a file one or two folders deep (outbox/messages/). */
const up = (folder) => [`../${folder}/*`, `../../${folder}/*`];
/** The server's entry points (processes), which nothing inside a server folder imports. */
const ENTRY_POINTS = ['../main', '../main.ts', '../devServer', '../devServer.ts', '../../main', '../../main.ts', '../../devServer', '../../devServer.ts'];

/** One layer's rule: `files` may not import `forbidden` (glob patterns), with `why` as the message. */
function layer(files, why, forbidden) {
  return {
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message: `Layering: ${why}.` }] }] },
  };
}

export default tseslint.config(
  { ignores: ['dist', 'dist-ssr', 'build', 'node_modules', '.data', '.e2e', '.bench', 'coverage', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  // One-way layering (DESIGN.md §1, docs/architecture.md): each zone lists what it may not import.
  // app → pages → components → context (actor contexts) → machines → services → config, #shared.
  layer(['machines/**/*.ts'], 'machines import only xstate, @/services, @/config and #shared', [
    ...REACT, '@/app/*', '@/pages/*', '@/components/*', '@/context/*', '@/content/*', '@/forms/*', '@/styles/*', ...ACROSS_FOLDERS,
  ]),
  layer(DECISION_CHARTS.map((name) => `machines/${name}.ts`), 'the decision charts run in the server too: they import only xstate and #shared', [
    ...REACT, '@/*', ...ACROSS_FOLDERS,
  ]),
  {
    // Machines are the spec of behaviour: no DOM either.
    files: ['machines/**/*.ts'],
    rules: { 'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'navigator', 'fetch'] },
  },
  layer(['src/services/**/*.ts'], 'services import only @/config and #shared (no React, machines or views)', [
    ...REACT, '\\#machines/*', '@/app/*', '@/pages/*', '@/components/*', '@/context/*', '@/content/*', '@/forms/*', '@/styles/*', ...ACROSS_FOLDERS,
  ]),
  layer(['src/components/**/*.{ts,tsx}'], 'components import no services, app or pages: side effects go through machines', [
    '@/services/*', '@/app/*', '@/pages/*', ...ACROSS_FOLDERS,
  ]),
  layer(['src/pages/**/*.{ts,tsx}'], 'pages import no services or app: side effects go through machines', ['@/services/*', '@/app/*', ...ACROSS_FOLDERS]),
  layer(['src/context/**/*.{ts,tsx}'], 'the actor contexts import no app, pages, components or services', [
    '@/app/*', '@/pages/*', '@/components/*', '@/services/*', ...ACROSS_FOLDERS,
  ]),
  layer(['src/utils/**/*.ts'], 'utils are plain functions over the DOM, numbers and text: they import only @/config and #shared', [
    ...REACT, '\\#machines/*', '@/app/*', '@/pages/*', '@/components/*', '@/context/*', '@/hooks/*', '@/estimator/*', '@/services/*', '@/content/*', '@/forms/*', '@/styles/*', ...ACROSS_FOLDERS,
  ]),
  layer(['src/estimator/**/*.ts'], "the estimator's arithmetic imports only @/config and @/utils (no React, machines or views)", [
    ...REACT, '\\#machines/*', '@/app/*', '@/pages/*', '@/components/*', '@/context/*', '@/hooks/*', '@/services/*', '@/content/*', '@/forms/*', '@/styles/*', ...ACROSS_FOLDERS,
  ]),
  layer(['src/hooks/**/*.{ts,tsx}'], 'hooks import no services, app or pages: side effects go through machines', ['@/services/*', '@/app/*', '@/pages/*', ...ACROSS_FOLDERS]),
  layer(['src/{app,content,forms,config,styles}/**/*.{ts,tsx}', 'src/*.{ts,tsx}'], 'import across folders by alias (@/, #machines/, #shared/)', ACROSS_FOLDERS),
  layer(['server/**/*.ts'], 'the server imports only #shared and its own modules', SERVER_OUTSIDE),
  // Inside server/, each folder imports only the ones below it (DESIGN.md §1): http/ and cli/ use db/ and
  // outbox/, outbox/ uses db/, db/ uses neither; http/ and cli/ never each other; no folder the entry points.
  // A later zone replaces the rule for its files, so each one repeats SERVER_OUTSIDE.
  layer(['server/http/**/*.ts'], 'server/http/ uses db/, outbox/, config and limits: not cli/ or an entry point', [
    ...SERVER_OUTSIDE, ...up('cli'), ...ENTRY_POINTS,
  ]),
  layer(['server/cli/**/*.ts'], 'server/cli/ uses db/, outbox/, config and limits: not http/ or an entry point', [
    ...SERVER_OUTSIDE, ...up('http'), ...ENTRY_POINTS,
  ]),
  layer(['server/outbox/**/*.ts'], 'server/outbox/ uses db/, config and limits: not http/, cli/ or an entry point', [
    ...SERVER_OUTSIDE, ...up('http'), ...up('cli'), ...ENTRY_POINTS,
  ]),
  layer(['server/db/**/*.ts'], 'server/db/ is the lowest layer: not http/, cli/, outbox/ or an entry point', [
    ...SERVER_OUTSIDE, ...up('http'), ...up('cli'), ...up('outbox'), ...ENTRY_POINTS,
  ]),
  layer(['shared/**/*.ts'], 'shared/ is imported by client and server and imports neither', [...REACT, '@/*', '\\#machines/*', '../*']),
  {
    // A promise the server lets go of unhandled ends the process when it rejects (Node's default for an
    // unhandled rejection), and the server never exits on a request: every promise in server/ is awaited,
    // caught, or marked `void`. Lint checks that much; that a `void` chain ends in a catch of its own is
    // the reader's to keep. These rules read the types (the TypeScript project, tsconfig.json).
    files: ['server/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ['tests/e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.{ts,js,mjs}', '*.config.{ts,js}', '.ci/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } }, // browser: page.evaluate callbacks
    rules: { 'no-console': 'off' },
  },
);
