/**
 * The forms' answer templates (src/server/doors/form-answer.ts fills them) and the emails' links' page
 * (src/server/links.ts): the build writes them into dist/; the dev server renders them on demand.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import type { FormName } from '#src/lib/forms/forms.ts';
import { withoutBoot } from './boot-loader.ts';

/** What src/entry-server.tsx renders for a form's answer template. */
export type RenderedFormTemplate = Record<'head' | 'html', string>;

interface FormTemplateModule {
  renderFormTemplate: (form: FormName) => RenderedFormTemplate;
  renderLinkPageTemplate: () => RenderedFormTemplate;
}

/**
 * The site's index.html with nothing that boots the app (the template is served at the form's
 * action, where the app has no route, and must work as a plain form), and the given head and body.
 */
export function assembleFormTemplate(
  indexHtml: string,
  rendered: RenderedFormTemplate,
  styles: string,
): string {
  const html = withoutBoot(indexHtml)
    // The page's styles first: the template's own (a form's states, in its head) win a tie.
    .replace('<!--app-head-->', () => [styles, rendered.head].filter(Boolean).join('\n    '))
    .replace('<!--app-html-->', () => rendered.html);
  if (/<script\b/i.test(html)) throw new Error('A form answer template must carry no script');
  return html;
}

/**
 * The global styles (src/main.tsx imports them, outside the SSR module graph), then every
 * stylesheet the SSR module graph has met so far (the template's own among them).
 */
function devStylesheetLinks(server: ViteDevServer): string {
  const urls = new Set<string>(['/src/styles/global.css']);
  for (const module of server.environments.ssr.moduleGraph.idToModuleMap.values()) {
    if (module.id && /\.css($|\?)/.test(module.id) && !module.url.includes('?')) urls.add(module.url);
  }
  return [...urls].map((url) => `<link rel="stylesheet" href="${url}" />`).join('\n    ');
}

/**
 * The answer template of `form` on the listening dev server, or with no form the links' page, as the
 * build renders it; an answer template links the dev server's stylesheets (no dist/ to inline from).
 */
export async function devFormTemplate(server: ViteDevServer, form?: FormName): Promise<string> {
  const entry = (await server.ssrLoadModule('/src/entry-server.tsx')) as FormTemplateModule;
  const rendered = form ? entry.renderFormTemplate(form) : entry.renderLinkPageTemplate();
  const indexHtml = await readFile(join(server.config.root, 'index.html'), 'utf8');
  return assembleFormTemplate(indexHtml, rendered, form ? devStylesheetLinks(server) : '');
}
