/**
 * The build's settings and their one parser, shared by the Vite plugins (a bad value stops `vite
 * dev` / `vite build`) and the app, so they never disagree. The app reads `env`, validated once by
 * scripts/vite-plugins/site-settings.ts and handed over as one object (only the values it uses
 * reach the bundle); nothing else reads import.meta.env.
 */
import { AIRTABLE_DEFAULT_ENDPOINT, STORAGE_ANSWER_BOUND_MS } from './constants.ts';

export type FeatureFlag = 'APP_STORE_BUTTON' | 'GOOGLE_PLAY_BUTTON' | 'SCHOOLS_PAGE' | 'TEMP_ISSUE_POPUP';

/** The spec's defaults (section 6); each can be overridden at build time by VITE_FEATURE_<NAME>. */
export const FLAG_DEFAULTS: Readonly<Record<FeatureFlag, boolean>> = {
  APP_STORE_BUTTON: true,
  GOOGLE_PLAY_BUTTON: true,
  SCHOOLS_PAGE: true,
  TEMP_ISSUE_POPUP: false,
};

const GA_DEFAULT_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';
export const SITE_DEFAULT_URL = 'https://www.podling.app';

/** Raw values as Vite's loadEnv (or the launch check's environment) hands them over. */
export type RawSettings = Readonly<Record<string, string | undefined>>;

/**
 * How forms reach Airtable. 'direct' (the spec's): the page's client uses the embedded
 * VITE_AIRTABLE_API_KEY, readable by every visitor. 'relay': no key; the same-origin relay holds it.
 */
export type StorageMode = 'direct' | 'relay';

export interface SiteSettings {
  storageMode: StorageMode;
  /** Direct mode only; '' in relay mode so neither ever reaches the bundle. */
  airtableApiKey: string;
  airtableBaseId: string;
  airtableEndpointUrl: string;
  gaMeasurementId: string;
  gaScriptUrl: string;
  /** Absolute origin the site is served from, without a trailing slash. */
  siteUrl: string;
  /** Longest a visitor waits for a form's answer; tests may only shorten the spec's 30 s. */
  storageAnswerBoundMs: number;
  flags: Readonly<Record<FeatureFlag, boolean>>;
}

/** One bad setting: the variable, what it was, and what it accepts. */
type SettingProblem = Record<'name' | 'value' | 'accepts', string>;

/** Thrown by parseSiteSettings; its message names every bad variable and what it accepts. */
export class SettingsError extends Error {
  constructor(readonly problems: readonly SettingProblem[]) {
    super(
      [
        `Invalid build setting${problems.length > 1 ? 's' : ''}:`,
        ...problems.map(
          (problem) => `  ${problem.name}=${JSON.stringify(problem.value)}: expected ${problem.accepts}.`,
        ),
        'Fix the value in the environment or in .env / .env.local (see .env.example).',
      ].join('\n'),
    );
    this.name = 'SettingsError';
  }
}

const FLAG_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  on: true,
  off: false,
};

/** An absolute http(s) URL: these schemes cannot parse without a host. */
const isHttpUrl = (text: string) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

/**
 * Validates and types the raw settings. Unset or blank values take their defaults; anything
 * set but unusable is a problem, and all problems are reported together.
 */
export function parseSiteSettings(raw: RawSettings): SiteSettings {
  const problems: SettingProblem[] = [];
  const check = (name: `VITE_${string}`, ok: (value: string) => boolean, accepts: string): string => {
    const value = raw[name]?.trim() ?? '';
    if (value && !ok(value)) problems.push({ name, value, accepts });
    return value;
  };
  const url = (name: `VITE_${string}`, fallback: string): string =>
    (check(name, isHttpUrl, 'an absolute http(s) URL such as https://example.org') || fallback).replace(
      /\/+$/,
      '',
    );
  const flag = (name: FeatureFlag): boolean => {
    const variable = `VITE_FEATURE_${name}` as const;
    const word = check(variable, (given) => given.toLowerCase() in FLAG_WORDS, "'true' or 'false'");
    // Unset or refused (then reported): the default.
    return FLAG_WORDS[word.toLowerCase()] ?? FLAG_DEFAULTS[name];
  };

  const apiKey = check(
    'VITE_AIRTABLE_API_KEY',
    (value) => /^[\w.-]+$/.test(value),
    'an Airtable personal access token (letters, digits, dots)',
  );
  const storageMode: StorageMode = apiKey ? 'direct' : 'relay';
  const baseId = check(
    'VITE_AIRTABLE_BASE_ID',
    (value) => /^app[A-Za-z0-9]+$/.test(value),
    "an Airtable base id starting with 'app'",
  );
  const endpointUrl = url('VITE_AIRTABLE_ENDPOINT_URL', AIRTABLE_DEFAULT_ENDPOINT);
  if (apiKey && !baseId) {
    problems.push({
      name: 'VITE_AIRTABLE_BASE_ID',
      value: '',
      accepts: "the base id (starting with 'app') to go with VITE_AIRTABLE_API_KEY",
    });
  }
  const boundText = check(
    'VITE_STORAGE_ANSWER_BOUND_MS',
    (value) => /^[0-9]+$/.test(value) && Number(value) > 0 && Number(value) <= STORAGE_ANSWER_BOUND_MS,
    `a whole number of milliseconds from 1 to ${STORAGE_ANSWER_BOUND_MS} (it can only shorten the bound)`,
  );
  const settings: SiteSettings = {
    storageMode,
    airtableApiKey: apiKey,
    airtableBaseId: storageMode === 'direct' ? baseId : '',
    airtableEndpointUrl: storageMode === 'direct' ? endpointUrl : '',
    gaMeasurementId: check(
      'VITE_GA_MEASUREMENT_ID',
      (value) => /^G-[A-Z0-9]+$/.test(value),
      'a Google Analytics 4 measurement id such as G-ABC123XYZ',
    ),
    gaScriptUrl: url('VITE_GA_SCRIPT_URL', GA_DEFAULT_SCRIPT_URL),
    siteUrl: url('VITE_SITE_URL', SITE_DEFAULT_URL),
    storageAnswerBoundMs: boundText ? Number(boundText) : STORAGE_ANSWER_BOUND_MS,
    flags: Object.fromEntries(
      Object.keys(FLAG_DEFAULTS).map((name) => [name, flag(name as FeatureFlag)]),
    ) as Record<FeatureFlag, boolean>,
  };
  if (problems.length > 0) throw new SettingsError(problems);
  return settings;
}

declare const __SITE_SETTINGS__: SiteSettings | undefined;

/** The settings the app runs with; outside Vite (a tool importing this module directly) the defaults. */
export const env: SiteSettings =
  typeof __SITE_SETTINGS__ === 'undefined' ? parseSiteSettings({}) : __SITE_SETTINGS__;
