// The environments the runs of a table trained in, named beside the time-per-step table so its
// figures have their context: the engine, the machine, Node, the workers and the commit.
import { environmentLine } from '../results/environment.js';
import type { RunRecord } from '../recordTypes.js';

/**
 * `Measured on: <environment>.` when every run trained in one environment, else
 * `Runs from N environments (times compare only within one): <env> (k runs); …`.
 * Records without an environment (older ones) are named as such.
 */
export function environmentNote(records: readonly RunRecord[]): string {
  const runs = new Map<string, number>();
  for (const r of records) {
    const line = environmentLine(r);
    runs.set(line, (runs.get(line) ?? 0) + 1);
  }
  if (runs.size === 0) return '';
  if (runs.size === 1) return `Measured on: ${[...runs.keys()][0]}.`;
  const each = [...runs].map(([line, n]) => `${line} (${n} run${n === 1 ? '' : 's'})`);
  return `Runs from ${runs.size} environments (times compare only within one): ${each.join(' | ')}.`;
}
