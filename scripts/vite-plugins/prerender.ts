/**
 * `vite build` builds the deployable site (Vite's Environment API): the client bundle, an SSR build,
 * then every route (and 404.html) prerendered with only its page's CSS inlined and its boot list.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Manifest, ManifestChunk, Plugin, ViteBuilder } from 'vite';
import type { FormName } from '#src/lib/forms/forms.ts';
import { LINK_PAGE_TEMPLATE_PATH } from '#src/lib/page-templates.ts';
import { formTemplatePath } from '#src/server/doors/form-answer.ts';
import { BOOT_MODULES_ID, withBootLoader } from './boot-loader.ts';
import { assembleFormTemplate, type RenderedFormTemplate } from './form-templates.ts';
import { contentSecurityPolicy, headersFile, inlineScriptHashes } from './security-headers.ts';
import type { SiteSettingsHolder } from './site-settings.ts';

/** What src/entry-server.tsx renders for each route (declared here: the node tsconfig has no JSX). */
export interface PrerenderedPage {
  /** Route path, or '*' for the not-found page. */
  path: string;
  heading: string;
  head: string;
  html: string;
  /** Source module of the page's own chunk, whose boot list the page carries. */
  modulePath: string | null;
  /** The page keeps its prerendered markup when it hydrates: its chunk is not in its boot list. */
  isStatic: boolean;
}

const SSR_ENTRY = 'src/entry-server.tsx';
const CLIENT_START_MODULE = 'src/app/start.tsx';
/** The one module a page loads before the app: analytics, with consent (boot-loader.ts). */
const ANALYTICS_MODULE = 'src/lib/analytics.ts';

/** A page's boot list (boot-loader.ts), in load order: the chunks behind the start module and its own. */
function hydrationChunks(manifest: Manifest, modulePath: string | null): ManifestChunk[] {
  const chunks: ManifestChunk[] = [];
  const visited = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || visited.has(key)) return;
    visited.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
    chunks.push(chunk);
  };
  visit(CLIENT_START_MODULE);
  if (modulePath) visit(modulePath);
  return chunks;
}

/** The file a route is written to: clean URLs, and 404.html for the not-found page. */
export function fileForPath(path: string): string {
  if (path === '*') return '404.html';
  if (path === '/') return 'index.html';
  return join(path.replace(/^\//, ''), 'index.html');
}

/**
 * The CSS a page needs (global, then its hydrating chunks'), inline: first paint waits on no request.
 * Then a disabled link to each file, which browsers never fetch and which stops Vite's loader
 * fetching that CSS again when the page's chunk is imported for hydration.
 */
async function inlineStyles(outDir: string, manifest: Manifest, modulePath: string | null): Promise<string> {
  const entries = Object.values(manifest).filter((chunk) => chunk.isEntry);
  const files = [...entries, ...hydrationChunks(manifest, modulePath)].flatMap((chunk) => chunk.css ?? []);
  const hrefs = [...new Set(files)].map((file) => `/${file}`);
  const css = await Promise.all(hrefs.map((href) => readFile(join(outDir, href), 'utf8')));
  const style = `<style>${css.join('').replace(/<\/style/gi, '<\\/style')}</style>`;
  return [style, ...hrefs.map((href) => `<link rel="stylesheet" href="${href}" disabled />`)].join('\n    ');
}

/**
 * The SVG favicon as a data: URL in each page. Browsers fetch a linked icon right after load: one
 * more request on a phone's first visit, for a few hundred bytes. The file stays in dist/. Only
 * what a data: URL in a quoted attribute needs is escaped (its double quotes become single), so it
 * costs the home page's first window 90 bytes fewer than encodeURIComponent.
 */
async function withInlineIcon(html: string, outDir: string): Promise<string> {
  const link = /<link rel="icon" href="\/([^"]+\.svg)"/.exec(html);
  if (!link?.[1]) return html;
  const svg = (await readFile(join(outDir, link[1]), 'utf8')).trim();
  const url = svg.replaceAll('"', "'").replace(/[%#<>]/g, encodeURIComponent);
  return html.replace(`href="/${link[1]}"`, () => `href="data:image/svg+xml,${url}"`);
}

/** A form's answer template as src/entry-server.tsx renders it; the server fills it per native post. */
export interface FormTemplatePage extends RenderedFormTemplate {
  form: FormName;
  /** Source module of the form's own page: the template carries that page's CSS. */
  modulePath: string;
}

interface PrerenderModule {
  prerenderAll: () => Promise<PrerenderedPage[]>;
  renderFormTemplates: () => Promise<FormTemplatePage[]>;
  renderLinkPageTemplate: () => RenderedFormTemplate;
}

async function prerenderSite(builder: ViteBuilder, settings: SiteSettingsHolder): Promise<void> {
  const { client, ssr } = builder.environments;
  if (!client || !ssr) throw new Error('The site needs a client and an ssr build environment');
  const outDir = resolve(builder.config.root, client.config.build.outDir);
  const ssrDir = resolve(builder.config.root, ssr.config.build.outDir);
  await builder.build(client);
  await builder.build(ssr);
  try {
    const server = (await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href)) as PrerenderModule;
    const manifest = JSON.parse(await readFile(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    await rm(join(outDir, '.vite'), { recursive: true, force: true });
    // The entry's stylesheet link is replaced per page by the CSS that page needs, and its
    // module script by the loader that starts it at its visitor's first act.
    const builtIndexHtml = await withInlineIcon(
      (await readFile(join(outDir, 'index.html'), 'utf8')).replace(/\s*<link rel="stylesheet"[^>]*>/g, ''),
      outDir,
    );
    const analytics = manifest[ANALYTICS_MODULE];
    if (!analytics) throw new Error(`${ANALYTICS_MODULE} is not a chunk of the client build`);
    const pageHtml = withBootLoader(builtIndexHtml, { analyticsHref: `/${analytics.file}` });
    const pages = await server.prerenderAll();
    const documents = [];
    for (const page of pages) {
      const head = [
        page.head,
        await inlineStyles(outDir, manifest, page.modulePath),
        `<script type="application/json" id="${BOOT_MODULES_ID}">${JSON.stringify(hydrationChunks(manifest, page.isStatic ? null : page.modulePath).map((chunk) => `/${chunk.file}`))}</script>`,
      ].join('\n    ');
      documents.push({
        page,
        html: pageHtml.replace('<!--app-head-->', () => head).replace('<!--app-html-->', () => page.html),
      });
    }
    // Inline scripts are allowed by hash: all of them in the header, each page's own in its fallback
    // (the home page's bytes count against its first window: docs/speed.md).
    const scriptHashes = [...new Set(documents.flatMap(({ html }) => inlineScriptHashes(html)))];
    const securityMeta = (html: string) =>
      [
        `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(settings.current, { forMeta: true, scriptHashes: inlineScriptHashes(html) })}" />`,
        '<meta name="referrer" content="strict-origin-when-cross-origin" />',
      ].join('\n    ');
    const charset = '<meta charset="UTF-8" />';
    const withMeta = (html: string) => html.replace(charset, () => `${charset}\n    ${securityMeta(html)}`);
    const write = async (path: string, text: string) => {
      await mkdir(dirname(join(outDir, path)), { recursive: true });
      await writeFile(join(outDir, path), withMeta(text));
    };
    for (const { page, html } of documents) await write(fileForPath(page.path), html);
    // Relay mode only (only there does a server answer a native post or send email), none a route
    // or in the sitemap: each form's native-post answer page (src/server/doors/form-answer.ts fills it) and
    // the page the emails' links open, its styles inline (src/server/links.ts fills it).
    const relay = settings.current.storageMode === 'relay';
    const templates = relay ? await server.renderFormTemplates() : [];
    for (const template of templates) {
      const styles = await inlineStyles(outDir, manifest, template.modulePath);
      await write(formTemplatePath(template.form), assembleFormTemplate(builtIndexHtml, template, styles));
    }
    if (relay)
      await write(
        LINK_PAGE_TEMPLATE_PATH,
        assembleFormTemplate(builtIndexHtml, server.renderLinkPageTemplate(), ''),
      );
    const { siteUrl } = settings.current;
    await write('_headers', headersFile(settings.current, scriptHashes));
    const urls = pages
      .filter((page) => page.path !== '*')
      .map((page) => `<url><loc>${siteUrl}${page.path}</loc></url>`);
    await write(
      'sitemap.xml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  ${urls.join('\n  ')}\n</urlset>\n`,
    );
    await write('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`);
    builder.config.logger.info(
      `Prerendered ${pages.length} pages, ${templates.length} form answer templates and ${relay ? 1 : 0} ` +
        `email link page template into ${outDir}, with _headers, sitemap.xml and robots.txt ` +
        `(storage: ${settings.current.storageMode} mode)`,
    );
  } finally {
    await rm(ssrDir, { recursive: true, force: true });
  }
}

/** Makes `vite build` build the client and SSR environments and prerender every route. */
export function prerender(settings: SiteSettingsHolder): Plugin {
  return {
    name: 'podling:prerender',
    config(_config, { command }) {
      if (command !== 'build') return;
      return {
        builder: {
          // After the prerender below (its `buildApp` hook, order 'pre'): the Worker's environment
          // (Cloudflare's plugin), except in direct mode, whose build is static files only. The
          // plugin's own default would build the client again, over the prerendered pages.
          async buildApp(builder) {
            if (settings.current.storageMode === 'direct') return;
            for (const environment of Object.values(builder.environments))
              if (!environment.isBuilt) await builder.build(environment);
          },
        },
        environments: {
          client: { build: { manifest: true } },
          ssr: {
            build: {
              outDir: `node_modules/.tmp/ssr-${process.pid}-${Date.now()}`,
              emptyOutDir: true,
              copyPublicDir: false,
              // One file: the prerenderer imports it once and renders every page from it.
              rollupOptions: { input: SSR_ENTRY, output: { codeSplitting: false } },
            },
          },
        },
      };
    },
    buildApp: { order: 'pre', handler: (builder) => prerenderSite(builder, settings) },
  };
}
