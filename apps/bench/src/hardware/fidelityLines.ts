// The expected circuit fidelity an ibm dry run reports (`ibm-0001/fidelity.json`): the Trotter
// steps chosen for each spin count, the anneal time they imply, and the sizes that fall below the
// threshold (a warning; with `--strict`, a refusal).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IbmStepRecord } from '../recordTypes.js';

/** One spin count's choice, as the adapter writes it. */
interface SizeChoice extends IbmStepRecord {
  readonly physicalQubits?: readonly number[];
}

/** What the lines say, and the sizes below the threshold. */
export interface FidelitySummary {
  readonly lines: string[];
  readonly below: string[];
}

const f3 = (x: number): string => x.toPrecision(3);

/** The fidelity lines of an ibm dry run in `dir`, or undefined when it wrote no fidelity.json. */
export function fidelityLines(dir: string): FidelitySummary | undefined {
  let report: {
    backend?: string;
    calibration?: string;
    minFidelity?: number;
    bySpins?: SizeChoice[];
  };
  try {
    report = JSON.parse(readFileSync(join(dir, 'ibm-0001', 'fidelity.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const sizes = Array.isArray(report.bySpins) ? report.bySpins : [];
  const lines = [
    `expected circuit fidelity on ${report.backend} (calibration: ${report.calibration}; threshold ${report.minFidelity}):`,
  ];
  const below: string[] = [];
  for (const s of sizes) {
    const how =
      s.source === 'fidelity'
        ? 'chosen by the threshold'
        : s.source === 'options'
          ? 'from anneal.steps'
          : "dqa-sim's default";
    const fid = s.fidelity === undefined ? 'unknown' : f3(s.fidelity);
    const qubits = s.physicalQubits ? ` on qubits ${s.physicalQubits.join(',')}` : '';
    lines.push(
      `  ${s.spins} spin${s.spins === 1 ? '' : 's'}: ${s.steps} Trotter steps (${how}; anneal time τ = ${s.tau}) → ${fid}${qubits}`,
    );
    if (s.belowThreshold)
      below.push(
        `${s.spins}-spin circuits: expected fidelity ${fid} at ${s.steps} step(s), below ${report.minFidelity}`,
      );
  }
  const known = sizes.flatMap((s) => (s.fidelity === undefined ? [] : [s.fidelity]));
  if (known.length > 1)
    // Causal rows: each spin count 1 … T is one query position, so each is equally frequent.
    lines.push(
      `  the grid's circuits: mean expected fidelity ${f3(known.reduce((a, b) => a + b, 0) / known.length)}, lowest ${f3(Math.min(...known))} (each spin count is one query position, all equally frequent)`,
    );
  for (const b of below) lines.push(`warning: ${b}: most shots carry a gate or readout error`);
  return { lines, below };
}
