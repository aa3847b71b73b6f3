import type Airtable from 'airtable';
import { env } from '#src/config/settings.ts';

/** Where and as whom the storage layer talks to Airtable (or to the local emulator). */
export interface AirtableConfig {
  apiKey: string;
  baseId: string;
  endpointUrl: string;
}

/** Direct mode's Airtable configuration: the build's VITE_AIRTABLE_* settings. */
export function configFromEnv(): AirtableConfig {
  return { apiKey: env.airtableApiKey, baseId: env.airtableBaseId, endpointUrl: env.airtableEndpointUrl };
}

type AirtableConstructor = typeof Airtable;

let airtableModule: Promise<AirtableConstructor> | undefined;

/**
 * Loads airtable.js on first use: it is only needed once a visitor submits a form, so it stays
 * out of every page's first paint (its own chunk in the build).
 */
export function loadAirtable(): Promise<AirtableConstructor> {
  airtableModule ??= import('airtable').then(
    // A CommonJS module: Node exposes module.exports as `default`; Vite's pre-bundle does too,
    // but fall back to the namespace in case a bundler hands back module.exports itself.
    (mod) => (mod as { default?: AirtableConstructor }).default ?? (mod as unknown as AirtableConstructor),
    (error: unknown) => {
      // A failed chunk load (offline, new deploy) must not poison every later attempt.
      airtableModule = undefined;
      throw error;
    },
  );
  return airtableModule;
}

/** Thrown before any request when the build carries no API key or base id. */
export class AirtableConfigError extends Error {
  constructor(readonly missing: 'apiKey' | 'baseId') {
    super(`Airtable ${missing === 'apiKey' ? 'API key' : 'base id'} is not configured`);
    this.name = 'AirtableConfigError';
  }
}

/**
 * Opens a base with airtable.js. Its own 429 retry is switched off (it never gives up) so the
 * storage layer can retry within its answer bound; `requestTimeoutMs` aborts a hung request.
 */
export async function openAirtableBase(
  config: AirtableConfig,
  requestTimeoutMs: number,
): Promise<Airtable.Base> {
  if (!config.apiKey) throw new AirtableConfigError('apiKey');
  if (!config.baseId) throw new AirtableConfigError('baseId');
  const AirtableClient = await loadAirtable();
  const client = new AirtableClient({
    apiKey: config.apiKey,
    endpointUrl: config.endpointUrl.replace(/\/+$/, ''),
    noRetryIfRateLimited: true,
    // airtable.js treats 0 as "use the default" (5 minutes), so never pass less than 1 ms.
    requestTimeout: Math.max(1, Math.ceil(requestTimeoutMs)),
  });
  return client.base(config.baseId);
}
