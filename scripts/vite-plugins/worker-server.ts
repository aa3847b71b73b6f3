/**
 * The one server, in `vite` and `vite preview` as on Cloudflare: the Worker (src/server/worker.ts,
 * wrangler.jsonc) in workerd through Cloudflare's Vite plugin, with its queues, Rate Limiting, KV and
 * mail bindings as the plugin's local stand-ins, so every run stores through the same queue and writer.
 * Around it, for local runs only: the front door (front-door.ts) first on both servers; nothing of
 * `.data/` served (`server.fs.deny`); the Worker's settings (WORKER_SETTINGS) from the shell, `.env` or
 * `.dev.vars` (the plugin reads `vite preview`'s from the `.dev.vars` copied at build time, workers-sdk
 * discussion 13885, so this bridges the shell's in); on loopback, with no AIRTABLE_API_KEY, the Airtable
 * emulator, and always the mail outbox the Worker posts to (MAIL_OUTBOX_URL), both listed on
 * `/__emulator/`; a link secret of this checkout's own in `.data/link-secret`; and `CF-Connecting-IP`
 * from the socket (connecting-address.ts). A direct-mode build is static files (`assetsOnly`).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { cloudflare } from '@cloudflare/vite-plugin';
import ipaddr from 'ipaddr.js';
import {
  type Connect,
  loadEnv,
  mergeConfig,
  type Plugin,
  type PreviewServer,
  type UserConfig,
  type ViteDevServer,
} from 'vite';
import {
  createEmulator,
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_DEFAULT_DATA_FILE,
  type Emulator,
} from '#scripts/airtable-emulator/emulator.ts';
import { DEFAULT_MAIL_OUTBOX_DIR } from '#scripts/airtable-emulator/outbox.ts';
import { FORM_TEMPLATES_PREFIX } from '#src/server/doors/form-answer.ts';
import { FORMS, type FormName } from '#src/lib/forms/forms.ts';
import { LINK_PAGE_TEMPLATE_PATH } from '#src/lib/page-templates.ts';
import { WORKER_SETTINGS } from '#src/server/settings.ts';
import { WRANGLER_LOCAL_ENV } from '#scripts/wrangler-env.mjs';
import { onLoopback, withSecurityHeaders } from '#scripts/loopback.ts';
import { devFormTemplate } from './form-templates.ts';
import { connectingAddress } from './connecting-address.ts';
import { frontDoor } from './front-door.ts';
import type { SiteSettingsHolder } from './site-settings.ts';

type Vars = Record<string, string>;

/**
 * Points `vite preview` at the build in `outDir` (its Worker's, or a static build's config) through
 * the one file by which Cloudflare's plugin finds it; returns that config's folder, or null.
 */
function pointAtBuild(root: string, outDir: string): string | null {
  const built = ['podling_site', 'client']
    .map((dir) => path.join(outDir, dir, 'wrangler.json'))
    .find((file) => existsSync(file));
  if (!built) return null;
  const redirect = path.join(root, '.wrangler', 'deploy', 'config.json');
  mkdirSync(path.dirname(redirect), { recursive: true });
  writeFileSync(
    redirect,
    JSON.stringify({ configPath: path.relative(path.dirname(redirect), built), auxiliaryWorkers: [] }),
  );
  return path.dirname(built);
}

const readVarsFile = (file: string): Vars =>
  (existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {}) as Vars;

/** True for a bind to every address (`--host`, `0.0.0.0`, `::`): the server is on the network. */
const isWildcard = (host: string | boolean | undefined) =>
  host === true ||
  (typeof host === 'string' && ipaddr.isValid(host) && ipaddr.parse(host).range() === 'unspecified');

/**
 * The address `vite` (5173) or `vite preview` (4173) serves, from its host and port settings; on a
 * wildcard bind the loopback name, the Local address Vite prints (never `[::]`, no page's origin).
 */
function localSiteUrl(config: UserConfig, isPreview: boolean): string {
  const options = isPreview ? config.preview : config.server;
  const port = options?.port ?? (isPreview ? 4173 : 5173);
  if (port === 0) throw new Error('Give the server a port (or SITE_URL): emailed links must lead to it');
  const given = options?.host;
  const host = isWildcard(given) ? 'localhost' : typeof given === 'string' ? given : '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** On the network (a phone on the same Wi-Fi): how to give the site the address the phone uses. */
function networkHint(siteUrl: string, port: number | string): string {
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address;
  const example = `SITE_URL=http://${lan ?? '<this machine’s address>'}:${port}`;
  return `  ➜  Forms and emailed links use ${siteUrl}; to try the site from a phone, start again with ${example}`;
}

/** This checkout's own link secret (ignored by git): made once, 32 random bytes as hex. */
function localLinkSecret(root: string): string {
  const file = path.join(root, '.data/link-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * `vite` only: a form's answer template, or the emails' links' page template, rendered from the
 * sources when the Worker asks for it (on the stand-ins' loopback port, at DEV_TEMPLATES_URL).
 */
function devTemplates(server: ViteDevServer): Connect.NextHandleFunction {
  const linkPage = LINK_PAGE_TEMPLATE_PATH.replace(/\.html$/, '');
  return (req, res, next) => {
    const { pathname } = new URL(req.url ?? '/', 'http://local');
    const name = pathname.startsWith(FORM_TEMPLATES_PREFIX)
      ? pathname.slice(FORM_TEMPLATES_PREFIX.length).replace(/\.html$/, '')
      : '';
    const isLinkPage = pathname.replace(/\.html$/, '') === linkPage;
    if (!isLinkPage && !Object.hasOwn(FORMS, name)) return next();
    devFormTemplate(server, isLinkPage ? undefined : (name as FormName)).then((html) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    }, next);
  };
}

export function workerServer(settings: SiteSettingsHolder): Plugin[] {
  /** On `vite` and `vite preview` alike: the client's address, the emulator's page, the log line. */
  const mountStandIns = ({ middlewares, httpServer, config }: ViteDevServer | PreviewServer) => {
    if (config.mode === 'test') return;
    middlewares.use(frontDoor(middlewares.stack, (message) => config.logger.error(message)));
    if (httpServer) withSecurityHeaders(httpServer);
    const stand = emulator;
    if (!stand || !httpServer) return;
    middlewares.use(connectingAddress());
    middlewares.use(EMULATOR_ADMIN_PREFIX, (req, res) => {
      req.url = `${EMULATOR_ADMIN_PREFIX}${req.url ?? ''}`;
      stand.handle(req, res);
    });
    httpServer.once('listening', () => {
      const address = httpServer.address();
      const port = address && typeof address === 'object' ? address.port : '';
      config.logger.info(`  ➜  ${describe}: see them at http://127.0.0.1:${port}${EMULATOR_ADMIN_PREFIX}/`);
      const { host } = developing ? config.server : config.preview;
      if (isWildcard(host) && !givenSiteUrl) config.logger.info(networkHint(vars.SITE_URL ?? '', port));
    });
    httpServer.once('close', () => void standIns?.close());
  };
  let vars: Vars = {};
  let emulator: Emulator | undefined;
  let standIns: { url: string; close: () => Promise<void> } | undefined;
  let templates: Connect.NextHandleFunction | undefined;
  let describe = '';
  let givenSiteUrl = '';
  let developing = false;
  Object.assign(process.env, WRANGLER_LOCAL_ENV);

  const local: Plugin = {
    name: 'podling:worker-server',
    async config(config, { command, mode, isPreview }) {
      developing = command === 'serve' && !isPreview;
      if (command !== 'serve' || mode === 'test') return;
      const root = path.resolve(config.root ?? process.cwd());
      // `vite preview` serves the build in dist/ (or `--outDir X`): Cloudflare's plugin finds a
      // build through one file, which the last `vite build` wrote, so it is pointed at this one.
      const builtDir = isPreview
        ? pointAtBuild(root, path.resolve(root, config.build?.outDir ?? 'dist'))
        : null;
      // The link secret, the emulator's data, the outbox: never served by `vite`.
      const deny = (...paths: string[]) => ({ server: { fs: { deny: ['**/.data/**', ...paths] } } });
      if (settings.current.storageMode === 'direct') return deny();
      const shell = loadEnv(mode, root, '');
      const fromShell: Vars = {};
      for (const name of WORKER_SETTINGS) if (shell[name]) fromShell[name] = shell[name];
      const given = { ...readVarsFile(path.join(root, '.dev.vars')), ...fromShell };
      // The stand-ins' own settings (not the Worker's), from the shell or .dev.vars.
      const own = (name: string) => shell[name] || given[name];
      const outboxDir = path.resolve(root, own('MAIL_OUTBOX_DIR') || DEFAULT_MAIL_OUTBOX_DIR);
      const dataFile = own('AIRTABLE_EMULATOR_DATA') || EMULATOR_DEFAULT_DATA_FILE;
      // Its API answers requests without an Origin (the Worker's) and pages on its own origin:
      // no page on another origin reads submissions with its fixed local key.
      emulator = createEmulator({ dataFile: path.resolve(root, dataFile), outboxDir, apiOrigins: 'own' });
      const stand = emulator;
      // The stand-ins on their own loopback port: the Worker in workerd reaches them there.
      // `vite` only: the Worker's assets there are the sources' .html files, not the build's, so
      // it reads its page templates here (DEV_TEMPLATES_URL), rendered from the sources.
      standIns = await onLoopback((req, res) => {
        if (templates) templates(req, res, () => stand.handle(req, res));
        else stand.handle(req, res);
      });
      const ownAirtable = !given.AIRTABLE_API_KEY;
      vars = {
        ...(ownAirtable && {
          AIRTABLE_API_KEY: emulator.apiKey,
          AIRTABLE_BASE_ID: emulator.baseId,
          AIRTABLE_ENDPOINT_URL: standIns.url,
        }),
        ...fromShell,
        // The address this server serves, on the port it is told (taken strictly, below): every
        // emailed link leads there, whatever Host or request line a client sends.
        SITE_URL: (givenSiteUrl = given.SITE_URL ?? '') || localSiteUrl(config, isPreview === true),
        LINK_SECRET: given.LINK_SECRET || localLinkSecret(root),
        MAIL_OUTBOX_URL: `${standIns.url}${EMULATOR_ADMIN_PREFIX}/outbox`,
        ...(developing ? { DEV_TEMPLATES_URL: standIns.url } : {}),
      };
      const store = ownAirtable
        ? `the local Airtable emulator (${dataFile})`
        : `base ${vars.AIRTABLE_BASE_ID ?? '(AIRTABLE_BASE_ID unset)'} at ${vars.AIRTABLE_ENDPOINT_URL || 'Airtable'}`;
      describe = `Forms store in ${store}; emails land in ${path.relative(root, outboxDir) || '.'}`;
      if (isPreview) {
        // Cloudflare's plugin reads the built Worker's variables from the .dev.vars beside its
        // built config: the shell's settings go there, over those copied at build time.
        if (!builtDir) throw new Error('vite preview serves a build: run `npm run build` first');
        const file = path.join(builtDir, '.dev.vars');
        const built = existsSync(file) ? readFileSync(file, 'utf8') : null;
        writeFileSync(
          file,
          Object.entries({ ...readVarsFile(file), ...vars })
            .map(([name, value]) => `${name}=${JSON.stringify(value)}\n`)
            .join(''),
          { mode: 0o600 },
        );
        // Put back as built when the preview ends: a later `npx wrangler dev` of this build must
        // not meet the stand-ins' addresses, gone with this process.
        const restore = () => {
          if (built === null) rmSync(file, { force: true });
          else writeFileSync(file, built, { mode: 0o600 });
        };
        process.once('exit', restore);
        // Ctrl+C or a closed terminal end the process without 'exit': restore, then end as asked.
        for (const signal of ['SIGINT', 'SIGHUP'] as const)
          process.once(signal, () => {
            restore();
            process.kill(process.pid, signal);
          });
      }
      // No CORS grant to any other origin (Vite grants every localhost page by default): the
      // site's pages are same-origin, and no other page may read the emulator's admin through it.
      return mergeConfig(deny(path.resolve(root, dataFile), `${outboxDir}/**`), {
        server: { cors: false, strictPort: true },
        preview: { cors: false, strictPort: true },
      });
    },
    // Before Vite's own middleware and Cloudflare's: the front door comes first.
    configureServer: {
      order: 'pre',
      handler(server) {
        mountStandIns(server);
        templates = devTemplates(server);
      },
    },
    configurePreviewServer: { order: 'pre', handler: mountStandIns },
  };

  // Not in Vitest's own Vite server (mode 'test'): its tests start the servers they need.
  const notInVitest = (plugin: Plugin): Plugin => {
    const { apply } = plugin;
    return {
      ...plugin,
      apply: (config, env) =>
        env.mode !== 'test' &&
        (typeof apply === 'function' ? apply(config, env) : apply === undefined || apply === env.command),
    };
  };
  return [
    local,
    ...cloudflare({
      // The spec's direct mode: the page writes to Airtable itself, the build is static files.
      assetsOnly: () => settings.current.storageMode === 'direct',
      // Each server its own local state (queues, KV, limits): tests run several side by side.
      persistState: { path: process.env.WORKER_STATE_DIR || '.wrangler/state' },
      inspectorPort: false,
      // Merged into wrangler.jsonc's config. `vite` only: the shell's settings and the stand-ins, and
      // unknown paths answered by the app's router (no dist/404.html yet). A direct-mode build is
      // static files: nothing runs before the assets, and without the Worker there is no writer's
      // Durable Object (taken out of the config itself: the plugin merges arrays, never empties one).
      config: (worker) => {
        if (developing) return { vars, assets: { not_found_handling: 'single-page-application' } };
        if (settings.current.storageMode !== 'direct') return {};
        worker.durable_objects = { bindings: [] };
        worker.migrations = [];
        return { assets: { run_worker_first: false } };
      },
    }).map(notInVitest),
  ];
}
