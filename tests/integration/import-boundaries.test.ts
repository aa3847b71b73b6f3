// @vitest-environment node
/**
 * The import rules of eslint.config.js (ESLint's no-restricted-syntax, per folder), linted as the
 * project lints: each snippet at the file it would be written in, through ESLint's Node API.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** The import rules' messages for `code` written in `file` (relative to the root). */
async function importProblems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-syntax' || message.fatal)
    .map((message) => message.message);
}

describe('one import dialect', () => {
  it.each([
    // Outside the file's own folder: package.json imports, full file name.
    ['src/pages/home-page.tsx', "import { WaitlistForm } from '#src/features/waitlist/waitlist-form.tsx';"],
    // Its own folder or below: relative, full file name.
    ['src/features/quote/quote-form.tsx', "import { submit } from './submit-quote.ts';"],
    ['src/features/waitlist/waitlist-form.tsx', "import './waitlist-form.css';"],
    ['vite.config.ts', "import { prerender } from './scripts/vite-plugins/prerender.ts';"],
    // The same spelling in the files Node loads, the tools and the tests.
    ['scripts/vite-plugins/site-settings.ts', "import { parseSiteSettings } from '#src/config/settings.ts';"],
    ['tests/unit/analytics.test.ts', "vi.mock('#src/lib/analytics.ts', () => ({}));"],
    // Packages, and a package file with a query, are not the project's.
    ['src/components/carousel/load-slider.ts', "import url from 'slick-carousel/slick/slick.css?url';"],
  ])('%s may write %s', async (file, code) => {
    expect(await importProblems(file, code)).toEqual([]);
  });

  it.each([
    ['src/lib/airtable/upsert.ts', "import { env } from '@/config/env.ts';", /The '@\/' alias is gone/],
    [
      'src/features/quote/quote-form.tsx',
      "import { Field } from '../../components/form/field.tsx';",
      /No '\.\.\/'/,
    ],
    ['src/lib/airtable/preload.ts', "const load = () => import('./upsert');", /Name the file in full/],
    [
      'src/lib/airtable/preload.ts',
      "export { x } from '#src/lib/airtable/upsert.ts';",
      /imported relatively/,
    ],
    [
      'vite.config.ts',
      "import { prerender } from '#scripts/vite-plugins/prerender.ts';",
      /imported relatively/,
    ],
    ['tests/unit/analytics.test.ts', "vi.mock('#src/lib/analytics', () => ({}));", /Name the file in full/],
    [
      'tests/integration/load.test.ts',
      "import { runLoad } from '../../scripts/loadtest/core.mjs';",
      /No '\.\.\/'/,
    ],
  ])('%s may not write %s', async (file, code, message) => {
    const problems = await importProblems(file, code);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });
});

describe('import boundaries in src/', () => {
  it.each([
    ['src/features/quote/quote-form.tsx', "import { Field } from '#src/components/form/field.tsx';"],
    ['src/app/routes.tsx', "const page = () => import('#src/pages/about-page.tsx');"],
    ['src/server/doors/routes.ts', "import { FORMS } from '#src/lib/forms/forms.ts';"],
    ['src/lib/airtable/client.ts', "const load = () => import('airtable');"],
    ['src/lib/analytics.ts', "import ReactGA from 'react-ga4';"],
    ['src/lib/airtable/upsert.ts', "import type Airtable from 'airtable';"],
    // Tests may use the vendor clients to check what the site does with them.
    ['tests/integration/emulator/rest-api.test.ts', "import Airtable from 'airtable';"],
  ])('%s may write %s', async (file, code) => {
    expect(await importProblems(file, code)).toEqual([]);
  });

  it.each([
    ['src/components/footer.tsx', "import { x } from '#src/features/consent/consent-banner.tsx';", /flow/],
    ['src/config/site.ts', "import { x } from '#src/pages/home-page.tsx';", /flow/],
    ['src/pages/home-page.tsx', "export { start } from '#src/app/start.tsx';", /flow/],
    [
      'src/features/quote/quote-form.tsx',
      "import { x } from '#src/features/waitlist/waitlist-form.tsx';",
      /Features never import each other/,
    ],
    [
      'src/features/quote/quote-form.tsx',
      "const x = import('#src/features/consent/consent-banner.tsx');",
      /Features never import each other/,
    ],
    [
      'src/lib/airtable/client.ts',
      "import { createDoors } from '#src/server/worker.ts';",
      /nothing in the browser imports it/,
    ],
    [
      'src/server/doors/routes.ts',
      "import { Footer } from '#src/components/footer.tsx';",
      /src\/config and src\/lib only/,
    ],
    [
      'src/lib/forms/send-form.ts',
      "const airtable = () => import('airtable');",
      /Only src\/lib\/airtable\/client\.ts may import airtable/,
    ],
    ['src/lib/airtable/upsert.ts', "import Airtable from 'airtable';", /Only src\/lib\/airtable\/client\.ts/],
    ['src/components/video-facade.tsx', "import ReactGA from 'react-ga4';", /Only src\/lib\/analytics\.ts/],
  ])('%s may not write %s', async (file, code, message) => {
    const problems = await importProblems(file, code);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });
});
