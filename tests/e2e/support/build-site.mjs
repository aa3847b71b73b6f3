#!/usr/bin/env node
// @ts-check
/**
 * `node --import tsx tests/e2e/support/build-site.mjs <site>`: builds one e2e site (tests/e2e/support/config.mjs)
 * with `vite build`, unless its output already holds a build of the same sources and settings.
 * A run builds each site once, and running one spec again rebuilds nothing that has not changed.
 *
 * The stamp is a hash of every file the build reads (src/, public/, index.html, the Vite config
 * and its plugins, the lockfile) and of the site's settings; it is written last, so an
 * interrupted build is never taken for a finished one.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_SITES } from './config.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** What `vite build` reads, relative to the repository. */
const BUILD_INPUTS = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'scripts/vite-plugins',
  'package-lock.json',
];
const STAMP = '.e2e-build-stamp';

/** @param {string} path @param {import('node:crypto').Hash} hash */
function hashInto(path, hash) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const entry of readdirSync(full).sort()) hashInto(join(path, entry), hash);
    return;
  }
  hash.update(`${path}\0`);
  hash.update(readFileSync(full));
}

/** The stamp of a site's build: its inputs and its settings. @param {Record<string, string>} env */
function buildStamp(env) {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) hashInto(input, hash);
  hash.update(JSON.stringify(Object.entries(env).sort()));
  return hash.digest('hex');
}

/** Builds the named site unless its output is current. @param {string} name */
function buildSite(name) {
  const site = E2E_SITES.find((candidate) => candidate.name === name);
  if (!site) throw new Error(`No e2e site named ${name}: ${E2E_SITES.map((s) => s.name).join(', ')}`);
  const stamp = buildStamp(site.buildEnv);
  const stampFile = join(ROOT, site.outDir, STAMP);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`e2e: the ${name} site is built from these sources already (${site.outDir})`);
    return;
  }
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const run = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', site.outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...site.buildEnv } },
  );
  if (run.status !== 0) throw new Error(`vite build of the ${name} site failed (${run.status})`);
  writeFileSync(stampFile, stamp);
}

for (const name of process.argv.slice(2)) buildSite(name);
