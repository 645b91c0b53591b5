// Recorded `configuration` snapshots of two real heavy-hex IBM backends, for dry runs (which send
// nothing, so cannot ask the backend) and for the routing tests. Source: Qiskit/qiskit-ibm-runtime
// @ 73514f06603854cae92573c28c8462d4027efcb9 (coupling maps, brisbane's limits) and
// @ 57b3efd600406280db47226efc906cd984378084 (fez's limits),
// qiskit_ibm_runtime/fake_provider/backends/{fez/conf_fez.json, brisbane/conf_brisbane.json} (the
// fake backends' copies of the devices' answers). Coupling maps are kept in the files' order as
// `control-target` tokens.
import { IBM_BRISBANE_PROPERTIES, IBM_FEZ_PROPERTIES } from './calibration.js';
import type { IbmTarget } from './ibmTypes.js';

/** Parses `"a-b c-d …"` lines into directed pairs `[a, b]`, in order. */
function pairs(lines: readonly string[]): [number, number][] {
  return lines
    .join(' ')
    .split(' ')
    .filter((t) => t !== '')
    .map((t) => {
      const [a, b] = t.split('-').map(Number);
      return [a!, b!];
    });
}

/**
 * ibm_fez's `configuration` (156 qubits, Heron r2, `cz` in both directions of every coupler), as
 * Qiskit's fake backend recorded it: what a dry run routes onto when no `device` is given. A real
 * run reads the backend's current configuration and calibration instead.
 * @summary ibm_fez's `configuration` (156 qubits, Heron r2, `cz` in both directions of every coupler), as Qiskit's fake backend recorded it.
 * @category IBM Quantum
 */
export const IBM_FEZ_SNAPSHOT: IbmTarget = {
  configuration: {
    backend_name: 'ibm_fez',
    n_qubits: 156,
    basis_gates: ['cz', 'id', 'rz', 'sx', 'x'],
    max_experiments: 300,
    max_shots: 100_000,
    default_rep_delay: 250,
    processor_type: { family: 'Heron', revision: '2' },
    coupling_map: pairs([
      '0-1 1-0 1-2 2-1 2-3 3-2 3-4 3-16 4-3 4-5 5-4 5-6 6-5 6-7 7-6 7-8 7-17 8-7 8-9 9-8 9-10',
      '10-9 10-11 11-10 11-12 11-18 12-11 12-13 13-12 13-14 14-13 14-15 15-14 15-19 16-3 16-23',
      '17-7 17-27 18-11 18-31 19-15 19-35 20-21 21-20 21-22 21-36 22-21 22-23 23-16 23-22 23-24',
      '24-23 24-25 25-24 25-26 25-37 26-25 26-27 27-17 27-26 27-28 28-27 28-29 29-28 29-30',
      '29-38 30-29 30-31 31-18 31-30 31-32 32-31 32-33 33-32 33-34 33-39 34-33 34-35 35-19',
      '35-34 36-21 36-41 37-25 37-45 38-29 38-49 39-33 39-53 40-41 41-36 41-40 41-42 42-41',
      '42-43 43-42 43-44 43-56 44-43 44-45 45-37 45-44 45-46 46-45 46-47 47-46 47-48 47-57',
      '48-47 48-49 49-38 49-48 49-50 50-49 50-51 51-50 51-52 51-58 52-51 52-53 53-39 53-52',
      '53-54 54-53 54-55 55-54 55-59 56-43 56-63 57-47 57-67 58-51 58-71 59-55 59-75 60-61',
      '61-60 61-62 61-76 62-61 62-63 63-56 63-62 63-64 64-63 64-65 65-64 65-66 65-77 66-65',
      '66-67 67-57 67-66 67-68 68-67 68-69 69-68 69-70 69-78 70-69 70-71 71-58 71-70 71-72',
      '72-71 72-73 73-72 73-74 73-79 74-73 74-75 75-59 75-74 76-61 76-81 77-65 77-85 78-69',
      '78-89 79-73 79-93 80-81 81-76 81-80 81-82 82-81 82-83 83-82 83-84 83-96 84-83 84-85',
      '85-77 85-84 85-86 86-85 86-87 87-86 87-88 87-97 88-87 88-89 89-78 89-88 89-90 90-89',
      '90-91 91-90 91-92 91-98 92-91 92-93 93-79 93-92 93-94 94-93 94-95 95-94 95-99 96-83',
      '96-103 97-87 97-107 98-91 98-111 99-95 99-115 100-101 101-100 101-102 101-116 102-101',
      '102-103 103-96 103-102 103-104 104-103 104-105 105-104 105-106 105-117 106-105 106-107',
      '107-97 107-106 107-108 108-107 108-109 109-108 109-110 109-118 110-109 110-111 111-98',
      '111-110 111-112 112-111 112-113 113-112 113-114 113-119 114-113 114-115 115-99 115-114',
      '116-101 116-121 117-105 117-125 118-109 118-129 119-113 119-133 120-121 121-116 121-120',
      '121-122 122-121 122-123 123-122 123-124 123-136 124-123 124-125 125-117 125-124 125-126',
      '126-125 126-127 127-126 127-128 127-137 128-127 128-129 129-118 129-128 129-130 130-129',
      '130-131 131-130 131-132 131-138 132-131 132-133 133-119 133-132 133-134 134-133 134-135',
      '135-134 135-139 136-123 136-143 137-127 137-147 138-131 138-151 139-135 139-155 140-141',
      '141-140 141-142 142-141 142-143 143-136 143-142 143-144 144-143 144-145 145-144 145-146',
      '146-145 146-147 147-137 147-146 147-148 148-147 148-149 149-148 149-150 150-149 150-151',
      '151-138 151-150 151-152 152-151 152-153 153-152 153-154 154-153 154-155 155-139 155-154',
    ]),
  },
  // Its recorded calibration (calibrationSnapshots.generated.ts): what dry runs pick qubits and
  // estimate fidelity and QPU time with.
  properties: IBM_FEZ_PROPERTIES,
};

/**
 * ibm_brisbane's (retired) `configuration`: its name, qubits, basis, job limits and coupling map:
 * 127 qubits, Eagle r3, `ecr` calibrated in one direction per coupler. The heavy-hex Eagle layout
 * for dry runs and tests.
 * @summary ibm_brisbane's (retired) `configuration`.
 * @category IBM Quantum
 */
export const IBM_BRISBANE_SNAPSHOT: IbmTarget = {
  configuration: {
    backend_name: 'ibm_brisbane',
    n_qubits: 127,
    basis_gates: ['ecr', 'id', 'rz', 'sx', 'x'],
    max_experiments: 300,
    max_shots: 100_000,
    default_rep_delay: 250,
    coupling_map: pairs([
      '1-0 2-1 3-2 4-3 4-5 4-15 6-5 6-7 7-8 8-9 10-9 10-11 11-12 12-17 13-12 14-0 14-18 15-22',
      '16-8 16-26 17-30 18-19 20-19 20-33 21-20 21-22 22-23 24-23 24-34 25-24 26-25 27-26 28-27',
      '28-29 28-35 30-29 30-31 31-32 32-36 33-39 34-43 35-47 36-51 37-38 39-38 40-39 40-41',
      '41-53 42-41 42-43 43-44 44-45 46-45 46-47 48-47 48-49 50-49 50-51 52-37 52-56 53-60',
      '54-45 54-64 55-49 55-68 56-57 57-58 58-59 58-71 59-60 60-61 62-61 62-63 62-72 63-64',
      '65-64 65-66 67-66 67-68 69-68 69-70 73-66 74-70 74-89 75-90 76-75 77-71 77-76 77-78',
      '79-78 79-80 80-81 81-72 81-82 82-83 83-92 84-83 85-73 85-84 85-86 86-87 87-88 88-89',
      '91-79 92-102 93-87 93-106 94-90 94-95 95-96 97-96 97-98 98-91 99-98 100-99 100-110',
      '101-100 101-102 102-103 104-103 105-104 105-106 107-106 108-107 108-112 109-96 110-118',
      '111-104 112-126 113-114 114-109 114-115 116-115 116-117 117-118 118-119 120-119 121-120',
      '122-111 122-121 122-123 124-123 125-124 125-126',
    ]),
  },
  properties: IBM_BRISBANE_PROPERTIES,
};

const KNOWN: readonly IbmTarget[] = [IBM_FEZ_SNAPSHOT, IBM_BRISBANE_SNAPSHOT];

/**
 * The recorded snapshot of a backend, by name (`ibm_fez`, `ibm_brisbane`), or `undefined`.
 *
 * @example
 * import { knownIbmDevice } from '@boltzmann/quantum-adapters';
 *
 * const target = knownIbmDevice('ibm_fez');
 * console.log(target?.configuration.n_qubits); // 156
 * @category IBM Quantum
 */
export function knownIbmDevice(backend: string): IbmTarget | undefined {
  return KNOWN.find((t) => t.configuration.backend_name === backend);
}
