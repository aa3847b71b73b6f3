/**
 * Storage on the local servers, so forms work on a fresh clone with no Airtable account:
 *
 * - `vite` (dev), in relay mode (no VITE_AIRTABLE_API_KEY): the forms' doors (each form's path,
 *   src/server/doors.ts), in front of the real Airtable when AIRTABLE_API_KEY is set in the
 *   environment, or else in front of the local Airtable emulator, mounted on the same server
 *   (/v0, admin at /__emulator/).
 * - `vite preview`: the same, then dist/ served the way the host serves it (static-host.ts).
 *   `AIRTABLE_API_KEY=… AIRTABLE_BASE_ID=… AIRTABLE_ENDPOINT_URL=… vite preview` is therefore a
 *   faithful local copy of production.
 */
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Connect, type CorsOptions, loadEnv, type Plugin, type ResolvedConfig } from 'vite';
import {
  createEmulator,
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_API_KEY,
  EMULATOR_BASE_ID,
  EMULATOR_DEFAULT_DATA_FILE,
} from '#scripts/airtable-emulator/emulator.ts';
import { FORM_LIST } from '#src/lib/forms/forms.ts';
import { type FormTemplates, formTemplatesFrom } from '#src/server/form-door.ts';
import { isHiddenPath } from '#src/server/form-page.ts';
import { createDoors } from '#src/server/doors.ts';
import { EMAIL_LINK_PATHS } from '#src/server/mail/emails.ts';
import { MAIL_ENV_PREFIXES, type MailEnv } from '#src/server/mail/mail-settings.ts';
import { nodeMailService } from '#src/server/mail/node-mail.ts';
import { DEFAULT_MAIL_OUTBOX_DIR } from '#src/server/mail/outbox.ts';
import type { AirtableEnv } from '#src/server/settings.ts';
import { devFormTemplate } from './form-templates.ts';
import { webMiddleware } from './node-adapter.ts';
import type { SiteSettingsHolder } from './site-settings.ts';
import { staticHost } from './static-host.ts';

interface Listening {
  httpServer: {
    address(): AddressInfo | string | null;
  } | null;
}

function serverEnv(config: ResolvedConfig): AirtableEnv & MailEnv {
  // AIRTABLE_* and the mail settings from the environment or .env files: server-side only,
  // never in the bundle.
  return loadEnv(config.mode, config.envDir || config.root, ['AIRTABLE_', ...MAIL_ENV_PREFIXES]);
}

/** Where the doors' links lead, besides the forms' own doors: the emails' links. */
const EMAIL_PATHS = Object.values(EMAIL_LINK_PATHS);

function originOf(server: Listening): string {
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('The server is not listening yet');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}

/**
 * Mounts the forms' doors, and the emulator when no real Airtable is configured. Returns a line for
 * the terminal saying where submissions go.
 */
function mountStorage(
  middlewares: Connect.Server,
  config: ResolvedConfig,
  server: Listening,
  formTemplates: FormTemplates,
): () => string {
  const env = serverEnv(config);
  if (env.AIRTABLE_API_KEY) {
    const mail = nodeMailService(env, { local: false });
    const doors = webMiddleware(createDoors(env, { formTemplates, mail }));
    for (const path of [...FORM_LIST.map((form) => form.path), ...EMAIL_PATHS]) middlewares.use(path, doors);
    const upstream = env.AIRTABLE_ENDPOINT_URL || 'Airtable';
    return () =>
      `Forms store through ${FORM_LIST.map((form) => form.path).join(' and ')} in base ${env.AIRTABLE_BASE_ID ?? '(AIRTABLE_BASE_ID unset)'} at ${upstream}.`;
  }
  const dataFile = process.env.AIRTABLE_EMULATOR_DATA || EMULATOR_DEFAULT_DATA_FILE;
  // Mounted here, the emulator's API is the doors' upstream only: no page on another origin
  // (any localhost one included) may read submissions with its fixed key.
  const emulator = createEmulator({
    dataFile: path.resolve(config.root, dataFile),
    apiOrigins: 'own',
    outboxDir: path.resolve(config.root, env.MAIL_OUTBOX_DIR || DEFAULT_MAIL_OUTBOX_DIR),
  });
  middlewares.use((req, res, next) => {
    const pathname = new URL(req.url ?? '/', 'http://local').pathname;
    if (emulator.handles(pathname)) emulator.handle(req, res);
    else next();
  });
  let doors: ReturnType<typeof createDoors> | undefined;
  const mail = nodeMailService(
    { ...env, MAIL_OUTBOX_DIR: path.resolve(config.root, env.MAIL_OUTBOX_DIR || DEFAULT_MAIL_OUTBOX_DIR) },
    { local: true },
  );
  const emulatedDoors = webMiddleware((request, client) => {
    doors ??= createDoors(
      {
        AIRTABLE_API_KEY: EMULATOR_API_KEY,
        AIRTABLE_BASE_ID: EMULATOR_BASE_ID,
        AIRTABLE_ENDPOINT_URL: originOf(server),
      },
      { formTemplates, mail },
    );
    return doors(request, client);
  });
  for (const path of [...FORM_LIST.map((form) => form.path), ...EMAIL_PATHS])
    middlewares.use(path, emulatedDoors);
  return () =>
    `Forms store in the local Airtable emulator (${dataFile}): see them at ${originOf(server)}${EMULATOR_ADMIN_PREFIX}/ or with \`npm run submissions\`.`;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * CORS for the server's own origin only (any loopback spelling of its host and port). Vite's
 * default grants every localhost origin, so any page on this machine could read what the doors
 * and the mounted emulator answer (the emulator's fixed key opens its API); pages of the site are
 * same-origin and need no grant.
 */
function ownOriginCors(server: () => Listening | undefined): CorsOptions {
  return {
    origin(origin, callback) {
      const address = server()?.httpServer?.address();
      let own = false;
      if (origin && address && typeof address !== 'string') {
        try {
          const url = new URL(origin);
          own =
            url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname) && Number(url.port) === address.port;
        } catch {
          own = false;
        }
      }
      // The cors package reads a missing error as none (Vite's typing insists on an Error).
      callback(null as unknown as Error, own);
    },
  };
}

export function localAirtable(settings: SiteSettingsHolder): Plugin {
  let listening: Listening | undefined;
  const cors = ownOriginCors(() => listening);
  return {
    name: 'podling:local-airtable',
    config: () => ({ server: { cors }, preview: { cors } }),
    configureServer(server) {
      listening = server;
      // Direct mode: the page talks to Airtable (or VITE_AIRTABLE_ENDPOINT_URL) itself. Vitest
      // runs a dev server too, and its tests start the emulators they need themselves.
      if (settings.current.storageMode === 'direct' || server.config.mode === 'test') return;
      // No dist/ here: each answer template is rendered from the sources when it is needed.
      const templates = formTemplatesFrom((_path, form) => devFormTemplate(server, form), { cache: false });
      const describe = mountStorage(server.middlewares, server.config, server, templates);
      server.httpServer?.once('listening', () => server.config.logger.info(`  ➜  ${describe()}`));
    },
    configurePreviewServer(server) {
      listening = server;
      const outDir = path.resolve(server.config.root, server.config.build.outDir);
      const templates = formTemplatesFrom((file) => readFile(path.join(outDir, file), 'utf8'));
      const describe = mountStorage(server.middlewares, server.config, server, templates);
      // The raw answer templates are read above, never served (as on the Worker).
      server.middlewares.use(staticHost(outDir, { hidden: isHiddenPath }));
      server.httpServer.once('listening', () => server.config.logger.info(`  ➜  ${describe()}`));
    },
  };
}
