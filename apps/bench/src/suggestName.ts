// The name a mistyped one most likely meant: `bench shakespear` → "did you mean shakespeare?",
// `--sampler dwav` → "did you mean dwave?". Ours rather than commander's: a prefix counts too
// (`bench long` → long-context). A root leaf: the CLI (commands) and the runs (samplers) use it.
import { echo } from '@boltzmann/ising-core/internal';
import { BenchError } from './benchError.js';

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

/**
 * The name among `names` a mistyped one most likely meant: at most 2 edits away, or one it
 * begins (3 characters or more); undefined when none is close.
 *
 * @example
 * suggestName('reprot', ['report', 'export']); // 'report'
 */
export function suggestName(typed: string, names: readonly string[]): string | undefined {
  if (typed.length > 40) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = name.startsWith(typed) && typed.length >= 3 ? 0 : distance(typed, name);
    if (d <= 2 && (best === undefined || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/**
 * Refuses a name that is not among `names`, with the closest one and all of them.
 *
 * @param flag the flag that gave it, e.g. `--sampler`.
 * @param what what the names are, e.g. `registered samplers`.
 * @throws BENCH_INVALID_OPTION `--sampler "dwav" is not one of the registered samplers: did you
 *   mean "dwave"? (known: …)`.
 */
export function assertKnownName(
  flag: string,
  typed: string,
  names: readonly string[],
  what: string,
): void {
  if (names.includes(typed)) return;
  const guess = suggestName(typed, names);
  throw new BenchError(
    'BENCH_INVALID_OPTION',
    `${flag} ${echo(typed)} is not one of the ${what}: ${guess ? `did you mean "${guess}"? ` : ''}(known: ${names.join(', ')})`,
  );
}
