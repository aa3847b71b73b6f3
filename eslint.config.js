import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'dist-ssr', 'node_modules', '.data', 'test-results', 'playwright-report', 'coverage'] },
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
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'react-ga4', message: 'Only src/lib/analytics.ts may import react-ga4.' }] },
      ],
    },
  },
  // Imports flow one way (DESIGN.md): config/lib/content/components → features → pages → app.
  ...[
    {
      files: ['src/config/**', 'src/lib/**', 'src/content/**', 'src/components/**'],
      deny: ['@/features/*', '@/pages/*', '@/app/*'],
    },
    {
      files: ['src/features/consent/**'],
      deny: ['@/features/waitlist/*', '@/features/quote/*', '@/pages/*', '@/app/*'],
    },
    {
      files: ['src/features/waitlist/**'],
      deny: ['@/features/consent/*', '@/features/quote/*', '@/pages/*', '@/app/*'],
    },
    {
      files: ['src/features/quote/**'],
      deny: ['@/features/consent/*', '@/features/waitlist/*', '@/pages/*', '@/app/*'],
    },
    { files: ['src/pages/**'], deny: ['@/app/*'] },
  ].map(({ files, deny }) => ({
    files,
    ignores: ['src/lib/analytics.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'react-ga4', message: 'Only src/lib/analytics.ts may import react-ga4.' }],
          patterns: [
            { group: deny, message: 'Imports flow config/lib/content/components → features → pages → app.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/lib/analytics.ts', 'tests/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['scripts/**/*.{js,mjs,ts}', 'tests/integration/**/*.ts', 'tests/e2e/**/*.ts', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
