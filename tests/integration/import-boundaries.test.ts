// @vitest-environment node
import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import tseslint from 'typescript-eslint';
import boundaries from '../../scripts/eslint/import-boundaries.js';

const rule = boundaries.rules['import-boundaries'];
const src = (file: string) => path.resolve(import.meta.dirname, '../../src', file);

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

describe('import boundaries on resolved paths', () => {
  tester.run('import-boundaries', rule, {
    valid: [
      {
        filename: src('pages/home-page.tsx'),
        code: "import { WaitlistForm } from '@/features/waitlist/waitlist-form';",
      },
      {
        filename: src('features/quote/quote-form.tsx'),
        code: "import { Field } from '../../components/form/field';",
      },
      { filename: src('features/quote/quote-form.tsx'), code: "import { submit } from './submit-quote';" },
      { filename: src('app/routes.tsx'), code: "const page = () => import('../pages/about-page');" },
      {
        filename: src('server/relay.ts'),
        code: "import { RELAY_PATH } from '../lib/airtable/relay-protocol.ts';",
      },
      { filename: src('lib/airtable/client.ts'), code: "const load = () => import('airtable');" },
      { filename: src('lib/analytics.ts'), code: "import ReactGA from 'react-ga4';" },
      { filename: src('lib/airtable/upsert.ts'), code: "import type Airtable from 'airtable';" },
      // Not loaded by vite.config.ts: the alias is fine.
      { filename: src('lib/airtable/upsert.ts'), code: "import { env } from '@/config/env';" },
    ],
    invalid: [
      // Loaded by vite.config.ts through Node, where the alias does not resolve yet.
      {
        filename: src('config/site.ts'),
        code: "import { PRODUCT_NAME } from '@/config/product';",
        errors: [{ message: /vite\.config\.ts loads this file/ }],
      },
      {
        filename: src('server/gate.ts'),
        code: "import { isAcceptedEmail } from '@/lib/email';",
        errors: [{ message: /vite\.config\.ts loads this file/ }],
      },
      {
        filename: src('components/footer.tsx'),
        code: "import { x } from '../features/consent/banner';",
        errors: 1,
      },
      { filename: src('config/site.ts'), code: "import { x } from '@/pages/home-page';", errors: 1 },
      {
        filename: src('features/quote/quote-form.tsx'),
        code: "import { x } from '../waitlist/waitlist-form';",
        errors: 1,
      },
      {
        filename: src('features/quote/quote-form.tsx'),
        code: "const x = import('@/features/consent/banner');",
        errors: 1,
      },
      { filename: src('pages/home-page.tsx'), code: "export { start } from '../app/start';", errors: 1 },
      {
        filename: src('lib/airtable/client.ts'),
        code: "import { createRelay } from '../../server/relay.ts';",
        errors: 1,
      },
      { filename: src('server/relay.ts'), code: "import { Footer } from '../components/footer';", errors: 1 },
      {
        filename: src('features/waitlist/add.ts'),
        code: "const airtable = () => import('airtable');",
        errors: 1,
      },
      { filename: src('components/video.tsx'), code: "import ReactGA from 'react-ga4';", errors: 1 },
    ],
  });
});
