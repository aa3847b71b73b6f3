import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importBoundaries from './scripts/eslint/import-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-ssr',
      'node_modules',
      '.data',
      '.wrangler',
      'test-results',
      'playwright-report',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: [
      'src/**/*.{ts,tsx}',
      'tests/unit/**/*.{ts,tsx}',
      'tests/component/**/*.{ts,tsx}',
      'tests/setup/**/*.ts',
    ],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.strict.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // One import dialect everywhere, and the architecture's import rules on resolved paths, dynamic
  // import() included (scripts/eslint/import-boundaries.js): full file names, './' inside a
  // file's own folder and '#src/', '#scripts/', '#tests/' otherwise; one-way flow, features
  // apart, src/server/ kept off the page, and airtable / react-ga4 each imported from one module.
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    plugins: { local: importBoundaries },
    rules: { 'local/import-boundaries': 'error' },
  },
  {
    files: [
      'scripts/**/*.{js,mjs,ts}',
      'tests/integration/**/*.ts',
      'tests/e2e/**/*.{ts,mjs}',
      'tests/*.mjs',
      'tests/runner/**/*.{ts,mjs}',
      '*.config.{js,ts}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
);
