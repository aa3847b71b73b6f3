/** `npm run emulator` (USAGE below): the Airtable emulator on its own loopback port. */
import { ADMIN_HELP } from './admin.ts';
import {
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_DEFAULT_DATA_FILE,
  EMULATOR_DEFAULT_PORT,
  startEmulator,
  type ListenOptions,
} from './emulator.ts';
import { runAsCommand } from '#scripts/command.ts';

export const USAGE = [
  'Usage: npm run emulator -- [--port 8787] [--host 127.0.0.1] [--data .data/airtable.json | --no-data]',
  '       [--empty-base] [--rate-limit 5] [--rate-limit-penalty 0] [--latency 0] [--api-key KEY] [--base BASE_ID]',
  '--empty-base starts with no tables (to try `npm run airtable:setup` against it).',
  ADMIN_HELP,
].join('\n');

/** Emulator options from command-line flags, or 'help'; throws on an unknown or incomplete flag. */
export function parseEmulatorArgs(argv: readonly string[]): ListenOptions | 'help' {
  const options: ListenOptions = { port: EMULATOR_DEFAULT_PORT, dataFile: EMULATOR_DEFAULT_DATA_FILE };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const take = (): string => {
      const value = argv[i + 1];
      i += 1;
      if (value === undefined) throw new Error(`${flag} needs a value`);
      return value;
    };
    const number = (): number => {
      const value = Number(take());
      if (!Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a number of 0 or more`);
      return value;
    };
    if (flag === '--port') options.port = number();
    else if (flag === '--host') options.host = take();
    else if (flag === '--data') options.dataFile = take();
    else if (flag === '--no-data') delete options.dataFile;
    else if (flag === '--empty-base') options.schema = 'empty';
    else if (flag === '--rate-limit') options.rateLimitPerSecond = number();
    else if (flag === '--rate-limit-penalty') options.rateLimitPenaltyMs = number();
    else if (flag === '--latency') options.latencyMs = number();
    else if (flag === '--api-key') options.apiKey = take();
    else if (flag === '--base') options.baseId = take();
    else if (flag === '--help' || flag === '-h') return 'help';
    else throw new Error(`Unknown option ${flag} (try --help)`);
  }
  return options;
}

/** Runs the emulator until SIGINT/SIGTERM. Resolves with an exit code only on bad flags. */
export async function main(argv: readonly string[]): Promise<number | undefined> {
  let options: ListenOptions | 'help';
  try {
    options = parseEmulatorArgs(argv);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const emulator = await startEmulator({ ...options, log: (line) => console.error(line) });
  console.log(
    `Airtable emulator on ${emulator.url} (key ${emulator.apiKey}, base ${emulator.baseId}` +
      `${options.dataFile ? `, data ${options.dataFile}` : ''}); records: ${emulator.url}${EMULATOR_ADMIN_PREFIX}/`,
  );
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}

runAsCommand(import.meta.url, main);
