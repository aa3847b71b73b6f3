#!/usr/bin/env node
// @ts-check
/**
 * Runs commands at the same time and prints each one's output whole when it ends, so their lines
 * never interleave; fails when any of them fails. For checks that each use one core (tsc, ESLint,
 * Prettier): side by side they finish in the time of the longest.
 *
 *   node tests/runner/side-by-side.mjs "npm run typecheck" "npm run lint" "npm run format:check"
 */
import { spawn } from 'node:child_process';

/**
 * Runs `command` with `args`, keeping its output; prints it under `title` when it ends and
 * resolves to its exit code.
 * @param {string} title @param {string} command @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, shell?: boolean }} [options]
 * @returns {Promise<number>}
 */
function runBuffered(title, command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      shell: options.shell ?? false,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      console.log(`\n${title}\n${output}`);
      resolve(code ?? 1);
    });
  });
}

async function main() {
  const commands = process.argv.slice(2);
  if (commands.length === 0) {
    console.error('usage: side-by-side.mjs "<command>" ["<command>"…]');
    process.exit(2);
  }
  const codes = await Promise.all(
    commands.map((command) => runBuffered(`> ${command}`, command, [], { shell: true })),
  );
  const failed = commands.filter((_, index) => codes[index] !== 0);
  if (failed.length > 0) {
    console.error(`failed: ${failed.join(', ')}`);
    process.exit(1);
  }
}

await main();
