/**
 * `npm run loadtest`: the launch-day rush against a local emulator with Airtable's limit, in
 * one or more deploy modes, printed as one table. Defaults are the launch target:
 *
 *   npm run loadtest                                  # queued mode (the Worker in workerd)
 *   npm run loadtest -- --mode all                    # direct and queued, one table
 *                                                     # (queued with mail: emails queued, sent,
 *                                                     # one confirmation per new address)
 *   npm run loadtest -- --errors 0.02 --drops 0.01    # Airtable having a bad day
 *   npm run loadtest -- --signups 300 --quotes 30 --repeats 30 --over 5
 *   npm run loadtest -- --attack                      # one client flooding the Worker (20 in
 *                                                     # flight) while 60 real visitors sign up over 60 s
 */
import { parseArgs } from 'node:util';
import {
  confirmationVerdict,
  formatAttackTable,
  formatRushTable,
  RUSH_MODES,
  runRush,
  type RushMode,
  type RushReport,
} from './rush.ts';
import { runAsCommand } from '#scripts/command.ts';

/** `--attack` alone: the gate issue's attack, one client with 20 requests in flight. */
const ATTACK_DEFAULTS = { inFlight: 20, signups: 60, quotes: 0, repeats: 0, over: 60 };

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      mode: { type: 'string', default: 'queued' },
      signups: { type: 'string', default: '10000' },
      quotes: { type: 'string', default: '1000' },
      repeats: { type: 'string', default: '500' },
      over: { type: 'string', default: '60' },
      penalty: { type: 'string', default: '30000' },
      errors: { type: 'string', default: '0' },
      drops: { type: 'string', default: '0' },
      settle: { type: 'string', default: '600' },
      attack: { type: 'boolean', default: false },
      'attack-in-flight': { type: 'string', default: String(ATTACK_DEFAULTS.inFlight) },
    },
  });
  if (values.attack) {
    // Direct mode has no door to flood: the attack is on the Worker's.
    if (argv.some((arg) => arg === '--mode' || arg.startsWith('--mode=')) && values.mode !== 'queued') {
      console.error('--attack floods the Worker: --mode queued, or no --mode');
      return 2;
    }
    return attack(values, Number(values['attack-in-flight']));
  }
  const modes: RushMode[] =
    values.mode === 'all' ? [...RUSH_MODES] : RUSH_MODES.filter((mode) => mode === values.mode);
  if (modes.length === 0) {
    console.error(`--mode must be one of ${RUSH_MODES.join(', ')} or all`);
    return 2;
  }
  const numbers = Object.fromEntries(
    Object.entries(values)
      .filter(([name]) => name !== 'mode' && name !== 'attack' && name !== 'attack-in-flight')
      .map(([name, value]) => [name, Number(value)]),
  ) as Record<'signups' | 'quotes' | 'repeats' | 'over' | 'penalty' | 'errors' | 'drops' | 'settle', number>;
  const bad = Object.entries(numbers).filter(([, value]) => !Number.isFinite(value) || value < 0);
  if (bad.length > 0) {
    console.error(`Not a number ≥ 0: ${bad.map(([name]) => `--${name}`).join(', ')}`);
    return 2;
  }
  const reports: RushReport[] = [];
  for (const mode of modes) {
    reports.push(
      await runRush({
        mode,
        signups: numbers.signups,
        quotes: numbers.quotes,
        repeats: numbers.repeats,
        overMs: numbers.over * 1000,
        penaltyMs: numbers.penalty,
        errorRate: numbers.errors,
        dropRate: numbers.drops,
        settleTimeoutMs: numbers.settle * 1000,
        log: (line) => console.log(line),
      }),
    );
  }
  console.log(
    `\nRush: ${numbers.signups} sign-ups + ${numbers.quotes} quotes + ${numbers.repeats} repeats over ${numbers.over} s; ` +
      `Airtable limit 5 requests/s, penalty ${numbers.penalty / 1000} s; ` +
      `${numbers.errors * 100}% of answers 500, ${numbers.drops * 100}% dropped.\n`,
  );
  console.log(formatRushTable(reports));
  for (const report of reports) {
    const failures = Object.entries(report.errors)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([message, count]) => `${count}× ${message}`)
      .join('; ');
    console.log(
      `\n${report.mode}: peak ${report.peakRequestsPerSecond} Airtable requests in one second; ` +
        `${report.recordsPerRequest.toFixed(2)} records stored per request, ${report.requestsPerSecond.toFixed(2)} requests/s ` +
        `(Airtable's ceiling: 5 requests/s × 10 records = 50 records/s)${failures ? `; errors: ${failures}` : ''}`,
    );
  }
  const healthy = (r: RushReport) =>
    r.lost === 0 && r.duplicates === 0 && (!r.mail || confirmationVerdict(r.mail) === 'yes');
  return reports.every(healthy) ? 0 : 1;
}

/** The attack run: the Worker (queued mode), flooded by one client. */
async function attack(values: { signups?: string; over?: string }, inFlight: number): Promise<number> {
  const signups = values.signups === '10000' ? ATTACK_DEFAULTS.signups : Number(values.signups);
  const over = values.over === '60' ? ATTACK_DEFAULTS.over : Number(values.over);
  const report = await runRush({
    mode: 'queued',
    signups,
    quotes: ATTACK_DEFAULTS.quotes,
    repeats: ATTACK_DEFAULTS.repeats,
    overMs: over * 1000,
    penaltyMs: 30_000,
    attackInFlight: inFlight,
    settleTimeoutMs: 120_000,
    log: (line) => console.log(line),
  });
  console.log(
    `\nAttack: one client with ${inFlight} creates in flight for ${over} s while ${signups} real visitors ` +
      `sign up from addresses of their own; Airtable limit 5 requests/s, penalty 30 s.\n`,
  );
  console.log(formatAttackTable([report]));
  return report.lost === 0 && report.succeeded === report.submitted ? 0 : 1;
}

runAsCommand(import.meta.url, main);
