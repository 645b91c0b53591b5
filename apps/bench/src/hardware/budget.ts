// `--budget`: the most a grid may cost on hardware, in the unit its provider bills (QPU time for
// IBM and D-Wave, US dollars for Braket), and the check of an estimate against it.
import type { Cost } from '@boltzmann/quantum-adapters';
import type { Budget } from '../benchCommand.js';
import { BenchError } from '../benchError.js';

export type { Budget } from '../benchCommand.js';

const UNITS: readonly [RegExp, (x: number) => Budget['qpuSeconds'], 'qpuSeconds' | 'usd'][] = [
  [/^(\d+(?:\.\d+)?)\s*(?:s|sec|seconds?)$/i, (x) => x, 'qpuSeconds'],
  [/^(\d+(?:\.\d+)?)\s*(?:m|min|minutes?)$/i, (x) => x * 60, 'qpuSeconds'],
  [/^(\d+(?:\.\d+)?)\s*(?:h|hours?)$/i, (x) => x * 3600, 'qpuSeconds'],
  [/^\$\s*(\d+(?:\.\d+)?)$/, (x) => x, 'usd'],
  [/^(\d+(?:\.\d+)?)\s*(?:usd|\$)$/i, (x) => x, 'usd'],
];

/**
 * `--budget`'s value: `600s`, `10min`, `2h` (QPU time) or `$25`, `25usd` (US dollars).
 *
 * @throws BENCH_INVALID_OPTION for anything else, or a budget of 0.
 * @example
 * parseBudget('10min'); // { qpuSeconds: 600, text: '10min' }
 */
export function parseBudget(raw: string): Budget {
  const text = raw.trim();
  for (const [pattern, scale, unit] of UNITS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const value = scale(Number(m[1]))!;
    if (value > 0) return { [unit]: value, text };
  }
  throw new BenchError(
    'BENCH_INVALID_OPTION',
    `--budget must be QPU time (e.g. 600s, 10min, 2h) or US dollars (e.g. $25, 25usd), > 0; got ${JSON.stringify(raw)}`,
  );
}

/**
 * Why `total` breaks `budget`, or undefined when it fits. An estimate without the budget's unit
 * (a Braket grid against a time budget, an unknown rate) cannot be checked and breaks it too.
 */
export function budgetProblem(total: Cost, budget: Budget): string | undefined {
  const unit = budget.qpuSeconds !== undefined ? 'qpuSeconds' : 'usd';
  const limit = budget[unit]!;
  const cost = total[unit];
  const say = (x: number): string =>
    unit === 'usd'
      ? `$${x.toFixed(2)}`
      : `${x.toLocaleString('en-US', { maximumFractionDigits: 1 })} QPU seconds`;
  if (cost === undefined)
    return `the estimate has no ${unit === 'usd' ? 'price in US dollars' : 'QPU time'} to hold against --budget ${budget.text}`;
  if (cost > limit)
    return `the estimate, ${say(cost)}, is over --budget ${budget.text} (${say(limit)})`;
  return undefined;
}
