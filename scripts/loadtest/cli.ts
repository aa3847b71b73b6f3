/**
 * `npm run loadtest`: the launch-day rush against a local emulator with Airtable's limit, in
 * one or more deploy modes, printed as one table. Defaults are the launch target:
 *
 *   npm run loadtest                                  # queued mode (the Worker in workerd)
 *   npm run loadtest -- --mode all                    # direct, relay and queued, one table
 *   npm run loadtest -- --errors 0.02 --drops 0.01    # Airtable having a bad day
 *   npm run loadtest -- --signups 300 --quotes 30 --repeats 30 --over 5
 */
import { parseArgs } from 'node:util';
import { formatRushTable, RUSH_MODES, runRush, type RushMode, type RushReport } from './rush.ts';

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
    },
  });
  const modes: RushMode[] =
    values.mode === 'all' ? [...RUSH_MODES] : RUSH_MODES.filter((mode) => mode === values.mode);
  if (modes.length === 0) {
    console.error(`--mode must be one of ${RUSH_MODES.join(', ')} or all`);
    return 2;
  }
  const numbers = Object.fromEntries(
    Object.entries(values)
      .filter(([name]) => name !== 'mode')
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
  const healthy = reports.every((r) => r.lost === 0 && r.duplicates === 0);
  return healthy ? 0 : 1;
}
