// Recorded calibrations as Runtime's `properties` (the snapshots the dry runs route and estimate
// with), and a calibration's error lookups: each gate's on given qubits, each qubit's readout.
import { IBM_BRISBANE_CALIBRATION, IBM_FEZ_CALIBRATION } from './calibrationSnapshots.generated.js';
import type { CompactCalibration } from './calibrationTypes.js';
import type { IbmBackendProperties } from './ibmTypes.js';

/** A compact snapshot as the `properties` Runtime answers with (the fields it keeps). */
export function propertiesOf(c: CompactCalibration): IbmBackendProperties {
  const qubits = c.readoutError.map((error, q) => [
    { name: 'readout_error', value: error, unit: '' },
    { name: 'readout_length', value: c.readoutLengthNs[q]!, unit: 'ns' },
  ]);
  const gates = c.gates.flatMap((line) =>
    line.split(' ').map((token) => {
      const [gate, on, error, length] = token.split(':');
      return {
        gate: gate!,
        qubits: on!.split('-').map(Number),
        parameters: [
          { name: 'gate_error', value: Number(error), unit: '' },
          { name: 'gate_length', value: Number(length), unit: 'ns' },
        ],
      };
    }),
  );
  return { last_update_date: c.date, qubits, gates };
}

/** ibm_fez's recorded properties (2025-02-26). */
export const IBM_FEZ_PROPERTIES = propertiesOf(IBM_FEZ_CALIBRATION);
/** ibm_brisbane's recorded properties (2025-02-26). */
export const IBM_BRISBANE_PROPERTIES = propertiesOf(IBM_BRISBANE_CALIBRATION);

const isError = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** The median of known values, or undefined. */
function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Error lookups of one calibration; `missing` names what fell back to a median (or to none). */
export interface ErrorLookup {
  /** `gate_error` of `gate` on `qubits` (either order for two), else that gate's median, else undefined. */
  gate(gate: string, qubits: readonly number[]): number | undefined;
  /** `readout_error` of qubit `q`, else the median readout error, else undefined. */
  readout(q: number): number | undefined;
  /** Gates and qubits the calibration did not list, by kind (`cz`, `readout`, …). */
  readonly missing: Set<string>;
}

/** The error lookups of `properties`. */
export function errorLookup(properties: IbmBackendProperties): ErrorLookup {
  const byKey = new Map<string, number>();
  const byGate = new Map<string, number[]>();
  for (const g of properties.gates ?? []) {
    const v = g.parameters.find((p) => p.name === 'gate_error')?.value;
    if (!isError(v)) continue;
    byKey.set(`${g.gate}:${g.qubits.join(',')}`, v);
    byGate.set(g.gate, [...(byGate.get(g.gate) ?? []), v]);
  }
  const readouts = (properties.qubits ?? []).map(
    (q) => q.find((p) => p.name === 'readout_error')?.value,
  );
  const medians = new Map([...byGate].map(([gate, values]) => [gate, median(values)]));
  const readoutMedian = median(readouts.filter(isError));
  const missing = new Set<string>();
  return {
    missing,
    gate(gate, qubits) {
      const hit =
        byKey.get(`${gate}:${qubits.join(',')}`) ??
        byKey.get(`${gate}:${[...qubits].reverse().join(',')}`);
      if (hit !== undefined) return hit;
      missing.add(gate);
      return medians.get(gate);
    },
    readout(q) {
      const v = readouts[q];
      if (isError(v)) return v;
      missing.add('readout');
      return readoutMedian;
    },
  };
}
