// @vitest-environment node
import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import tseslint from 'typescript-eslint';
import boundaries from '#scripts/eslint/import-boundaries.js';

const rule = boundaries.rules['import-boundaries'];
const ROOT = path.resolve(import.meta.dirname, '../..');
const src = (file: string) => path.join(ROOT, 'src', file);
const at = (file: string) => path.join(ROOT, file);

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

describe('one import dialect, with the fix', () => {
  tester.run('import-boundaries', rule, {
    valid: [
      // Outside the file's own folder: package.json imports, full file name.
      {
        filename: src('pages/home-page.tsx'),
        code: "import { WaitlistForm } from '#src/features/waitlist/waitlist-form.tsx';",
      },
      // Its own folder or below: relative, full file name.
      { filename: src('features/quote/quote-form.tsx'), code: "import { submit } from './submit-quote.ts';" },
      { filename: src('features/waitlist/waitlist-form.tsx'), code: "import './waitlist-form.css';" },
      {
        filename: at('vite.config.ts'),
        code: "import { prerender } from './scripts/vite-plugins/prerender.ts';",
      },
      // The same spelling in the files Node loads, the tools and the tests.
      {
        filename: at('scripts/vite-plugins/site-settings.ts'),
        code: "import { parseSiteSettings } from '#src/config/settings.ts';",
      },
      {
        filename: at('tests/unit/analytics.test.ts'),
        code: "vi.mock('#src/lib/analytics.ts', () => ({}));",
      },
      // Packages, and a package file with a query, are not the project's.
      {
        filename: src('components/carousel/load-slider.ts'),
        code: "import url from 'slick-carousel/slick/slick.css?url';",
      },
      // A file that does not exist is TypeScript's to report.
      { filename: src('pages/home-page.tsx'), code: "import { x } from '#src/nowhere/missing.ts';" },
    ],
    invalid: [
      {
        filename: src('lib/airtable/upsert.ts'),
        code: "import { env } from '@/config/env';",
        output: "import { env } from '#src/config/env.ts';",
        errors: [{ message: /The '@\/' alias is gone: import '#src\/config\/env\.ts'/ }],
      },
      {
        filename: src('features/quote/quote-form.tsx'),
        code: "import { Field } from '../../components/form/field.tsx';",
        output: "import { Field } from '#src/components/form/field.tsx';",
        errors: [{ message: /outside this folder through package\.json imports/ }],
      },
      {
        filename: src('lib/airtable/preload.ts'),
        code: "const load = () => import('./upsert');",
        output: "const load = () => import('./upsert.ts');",
        errors: [{ message: /Name the file in full: '\.\/upsert\.ts'/ }],
      },
      {
        filename: src('lib/airtable/preload.ts'),
        code: "export { upsertWaitlistEntry } from '#src/lib/airtable/upsert.ts';",
        output: "export { upsertWaitlistEntry } from './upsert.ts';",
        errors: [{ message: /in this folder or below is imported relatively/ }],
      },
      {
        filename: at('tests/unit/analytics.test.ts'),
        code: "vi.mock('../../src/lib/analytics', () => ({}));",
        output: "vi.mock('#src/lib/analytics.ts', () => ({}));",
        errors: 1,
      },
      {
        filename: at('tests/integration/load.test.ts'),
        code: "import { runLoad } from '../../scripts/loadtest/core.mjs';",
        output: "import { runLoad } from '#scripts/loadtest/core.mjs';",
        errors: 1,
      },
    ],
  });
});

describe('import boundaries on resolved paths', () => {
  tester.run('import-boundaries', rule, {
    valid: [
      {
        filename: src('features/quote/quote-form.tsx'),
        code: "import { Field } from '#src/components/form/field.tsx';",
      },
      { filename: src('app/routes.tsx'), code: "const page = () => import('#src/pages/about-page.tsx');" },
      {
        filename: src('server/doors.ts'),
        code: "import { FORMS } from '#src/lib/forms/forms.ts';",
      },
      { filename: src('lib/airtable/client.ts'), code: "const load = () => import('airtable');" },
      { filename: src('lib/analytics.ts'), code: "import ReactGA from 'react-ga4';" },
      { filename: src('lib/airtable/upsert.ts'), code: "import type Airtable from 'airtable';" },
      // Tests may use the vendor clients to check what the site does with them.
      {
        filename: at('tests/integration/emulator/rest-api.test.ts'),
        code: "import Airtable from 'airtable';",
      },
    ],
    invalid: [
      {
        filename: src('components/footer.tsx'),
        code: "import { x } from '#src/features/consent/consent-banner.tsx';",
        errors: [{ message: /Imports flow config\/lib\/content\/components → features/ }],
      },
      {
        filename: src('config/site.ts'),
        code: "import { x } from '#src/pages/home-page.tsx';",
        errors: 1,
      },
      {
        filename: src('features/quote/quote-form.tsx'),
        code: "import { x } from '#src/features/waitlist/waitlist-form.tsx';",
        errors: [{ message: /Features never import each other/ }],
      },
      {
        filename: src('features/quote/quote-form.tsx'),
        code: "const x = import('#src/features/consent/consent-banner.tsx');",
        errors: 1,
      },
      {
        filename: src('pages/home-page.tsx'),
        code: "export { start } from '#src/app/start.tsx';",
        errors: 1,
      },
      {
        filename: src('lib/airtable/client.ts'),
        code: "import { createDoors } from '#src/server/doors.ts';",
        errors: [{ message: /nothing in the browser imports it/ }],
      },
      {
        filename: src('server/doors.ts'),
        code: "import { Footer } from '#src/components/footer.tsx';",
        errors: [{ message: /src\/config and src\/lib only/ }],
      },
      {
        filename: src('features/waitlist/add-to-waitlist.ts'),
        code: "const airtable = () => import('airtable');",
        errors: [{ message: /Only src\/lib\/airtable\/client\.ts may import airtable/ }],
      },
      { filename: src('components/video-facade.tsx'), code: "import ReactGA from 'react-ga4';", errors: 1 },
    ],
  });
});
