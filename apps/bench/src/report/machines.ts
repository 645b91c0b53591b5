// The machines a table's runs trained on. Times, and their ratios, compare only within one
// machine: issue 41's MQAR grid moved from a Zen 3 (AVX2) to a Zen 5 (AVX-512) machine halfway,
// and a cell averaging both said neither. The time table gives each machine its own rows, and the
// environment note names each machine with the commits that ran on it.
import { machineLine, shortCommit } from '../results/environment.js';
import type { RunRecord } from '../recordTypes.js';

/** The runs of one machine ({@link machineLine}), labelled A, B, … in order of first finish. */
export interface MachineGroup {
  readonly label: string;
  readonly line: string;
  readonly records: readonly RunRecord[];
  /** Each commit that ran here and its number of runs, in order of first finish. */
  readonly commits: ReadonlyArray<readonly [commit: string, runs: number]>;
}

/** Letters for machines: A … Z, then M27, M28, … */
const label = (k: number): string => (k < 26 ? String.fromCharCode(65 + k) : `M${k + 1}`);

/**
 * Groups runs by the machine they trained on. Runs are taken in order of `finishedAt`, so the
 * first machine to finish a run is A, and the labels do not depend on file order.
 *
 * @param records finished runs.
 * @returns one group per machine, empty for no runs.
 */
export function machineGroups(records: readonly RunRecord[]): MachineGroup[] {
  const byTime = [...records].sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
  const groups = new Map<string, { records: RunRecord[]; commits: Map<string, number> }>();
  for (const r of byTime) {
    const line = machineLine(r);
    let g = groups.get(line);
    if (!g) {
      g = { records: [], commits: new Map() };
      groups.set(line, g);
    }
    g.records.push(r);
    g.commits.set(shortCommit(r), (g.commits.get(shortCommit(r)) ?? 0) + 1);
  }
  return [...groups].map(([line, g], k) => ({
    label: label(k),
    line,
    records: g.records,
    commits: [...g.commits],
  }));
}
