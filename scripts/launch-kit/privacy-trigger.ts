/** For `npm run launch-check`: wrangler.jsonc without wrangler (its Cron Trigger applies the retention). */
import fs from 'node:fs';
import path from 'node:path';

/** The text of a JSONC file as JSON: comments and trailing commas removed, strings untouched. */
export function stripJsonc(text: string): string {
  return text
    .replace(/("(?:\\[^]|[^"\\])*")|\/\/[^\n]*|\/\*[^]*?(?:\*\/|$)/g, (_, string?: string) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
}

/** A wrangler.jsonc as JSON; null when the file is missing. */
export function readWranglerConfig(configPath: string): WranglerJson | null {
  if (!fs.existsSync(configPath)) return null;
  return JSON.parse(stripJsonc(fs.readFileSync(configPath, 'utf8'))) as WranglerJson;
}

type WranglerJson = Record<string, unknown> & {
  triggers?: { crons?: unknown };
  vars?: Record<string, unknown>;
};

/** The Cron Triggers of a wrangler.jsonc, [] when none; null when the file is missing. */
export function cronTriggersOf(configPath: string): string[] | null {
  const config = readWranglerConfig(configPath);
  if (!config) return null;
  const crons = config.triggers?.crons;
  return Array.isArray(crons)
    ? crons.filter((cron): cron is string => typeof cron === 'string' && cron.trim() !== '')
    : [];
}

/** A plain variable from wrangler.jsonc's `vars`, if the file and the variable are there. */
export function wranglerVarOf(root: string, name: string): string | undefined {
  const value = readWranglerConfig(path.join(root, 'wrangler.jsonc'))?.vars?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** True when a five-field cron expression fires every day (day of month, month and weekday all '*'). */
export function isDaily(cron: string): boolean {
  const fields = cron.trim().split(/\s+/);
  return fields.length === 5 && fields.slice(2).every((field) => field === '*');
}
