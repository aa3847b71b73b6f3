// TEMPORARY shim until the emulator split lands (branch `emulator`).
import type { IncomingMessage, ServerResponse } from 'node:http';
export {
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_API_KEY,
  EMULATOR_BASE_ID,
  EMULATOR_DEFAULT_DATA_FILE,
} from '../airtable-emulator.mjs';
export function createEmulator(options: { dataFile?: string }): {
  handles(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
} {
  throw new Error(`not yet: ${String(options.dataFile)}`);
}
