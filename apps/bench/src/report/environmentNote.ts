// The machines the runs of a table trained on, named beside the time-per-step table so its
// figures have their context: the engine, the machine, Node, the workers and the commits.
import { machineGroups } from './machines.js';
import type { MachineGroup } from './machines.js';
import type { RunRecord } from '../recordTypes.js';

/** `git abc` for one commit, `git abc (4 runs), def (1 run)` for several. */
function commitsText(g: MachineGroup): string {
  if (g.commits.length === 1) return `git ${g.commits[0]![0]}`;
  const runs = (n: number): string => `${n} run${n === 1 ? '' : 's'}`;
  return `git ${g.commits.map(([c, n]) => `${c} (${runs(n)})`).join(', ')}`;
}

/**
 * `Measured on: <machine>; git <commits>.` when every run trained on one machine, else
 * `Runs on N machines, …: A: <machine>; git <commits> | B: …`, with the letters the time table's
 * `machine` column uses. Records without an environment are named as such.
 */
export function environmentNote(records: readonly RunRecord[]): string {
  const groups = machineGroups(records);
  if (groups.length === 0) return '';
  if (groups.length === 1) return `Measured on: ${groups[0]!.line}; ${commitsText(groups[0]!)}.`;
  const each = groups.map((g) => `${g.label}: ${g.line}; ${commitsText(g)}`);
  return `Runs on ${groups.length} machines, so each machine has its own rows and ratios (times compare only within one): ${each.join(' | ')}.`;
}
