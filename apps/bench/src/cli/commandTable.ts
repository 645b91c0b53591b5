/*
 * The one list of the bench's commands, for `bench --help` and for suggestions when a command
 * is mistyped. main.ts dispatches them; each command's own `--help` lists its options.
 */
import { createRequire } from 'node:module';

/** Every bench command with its one-line description, in the order `bench --help` lists them. */
export const BENCH_COMMANDS: readonly (readonly [name: string, description: string])[] = [
  ['shakespeare', 'run the Tiny Shakespeare grid (the main bench)'],
  ['brackets', 'run the bracket-matching grid'],
  ['dqa', 'run the simulated-anneal grid and its fidelity sweep'],
  ['gpt', 'run the nanoGPT-protocol grid (multi-layer GPT)'],
  ['long-context', 'run the long-context experiment in slices'],
  ['sample', 'generate text from a saved model'],
  ['extrapolate', 'evaluate a saved model at longer contexts'],
  ['report', 'write the summary, plots and report.html of a results folder'],
  ['export', 'write the runs of results folders as CSV or JSON Lines'],
  ['samplers', 'list the sampler plugins --sampler accepts, with their capabilities'],
  ['worker', 'train the runs of grids enqueued with --queue'],
  ['status', 'show the runs on a queue'],
  ['collect', 'write the finished runs of a queued grid'],
];

/** The bench's version (its package.json), for `bench --version`. */
export function benchVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

/** Edit distance (insertions, deletions, substitutions), for short command names. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length]!;
}

/** The command a mistyped name most likely meant (at most 2 edits, or a prefix), if any. */
export function suggestCommand(typed: string): string | undefined {
  if (typed.length > 40) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const [name] of BENCH_COMMANDS) {
    const d = name.startsWith(typed) && typed.length >= 3 ? 0 : distance(typed, name);
    if (d <= 2 && (best === undefined || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** The "Commands:" block of `bench --help`. */
export function commandHelp(): string {
  const width = Math.max(...BENCH_COMMANDS.map(([name]) => name.length));
  return [
    'Commands (each has its own --help):',
    ...BENCH_COMMANDS.map(([name, d]) => `  ${name.padEnd(width)}  ${d}`),
  ].join('\n');
}
