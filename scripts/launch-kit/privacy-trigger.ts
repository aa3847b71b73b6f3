/**
 * For `npm run launch-check`: what wrangler.jsonc says, read without wrangler. Its Cron Trigger
 * (`triggers.crons`) runs the Worker's scheduled handler (src/server/retention-job.ts), which
 * applies the privacy policy's retention; without one, the owner runs `npm run privacy:retention`
 * by hand.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The text of a JSONC file as JSON: comments and trailing commas removed, strings untouched. */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '"') {
      // A string, copied as it is (escapes included).
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** The Cron Triggers of a wrangler.jsonc, [] when none; null when the file is missing. */
export function cronTriggersOf(configPath: string): string[] | null {
  if (!fs.existsSync(configPath)) return null;
  const config = JSON.parse(stripJsonc(fs.readFileSync(configPath, 'utf8'))) as {
    triggers?: { crons?: unknown };
  };
  const crons = config.triggers?.crons;
  return Array.isArray(crons)
    ? crons.filter((cron): cron is string => typeof cron === 'string' && cron.trim() !== '')
    : [];
}

/** A plain variable from wrangler.jsonc's `vars`, if the file and the variable are there. */
export function wranglerVarOf(root: string, name: string): string | undefined {
  const configPath = path.join(root, 'wrangler.jsonc');
  if (!fs.existsSync(configPath)) return undefined;
  const config = JSON.parse(stripJsonc(fs.readFileSync(configPath, 'utf8'))) as {
    vars?: Record<string, unknown>;
  };
  const value = config.vars?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** True when a five-field cron expression fires every day (day of month, month and weekday all '*'). */
export function isDaily(cron: string): boolean {
  const fields = cron.trim().split(/\s+/);
  return fields.length === 5 && fields.slice(2).every((field) => field === '*');
}
