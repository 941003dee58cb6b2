import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'dist-ssr', 'node_modules', '.data', '.e2e', '.bench', 'coverage', 'test-results', 'playwright-report'] },
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
  {
    // Machines are the spec of behaviour: no React, no DOM (DESIGN.md §1).
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-*', '@xstate/react', '**/components/**', '**/pages/**'] }],
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'navigator', 'fetch'],
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
