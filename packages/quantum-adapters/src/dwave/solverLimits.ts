// What SAPI would refuse, checked against the solver's definition before anything is sent.
import { echo } from '@boltzmann/ising-core/internal';
import { invalidArgument } from '../shared/errors.js';
import type { SapiSolver } from './sapiTypes.js';

function rangeOf(solver: SapiSolver, key: string): [number, number] | undefined {
  const r = solver.properties[key];
  return Array.isArray(r) && r.length === 2 && r.every((x) => typeof x === 'number')
    ? (r as [number, number])
    : undefined;
}

/** Refuses, before sending, what SAPI would refuse: unknown parameters (except `x_*`, as the official client) and reads out of range. */
export function checkParams(solver: SapiSolver, params: Record<string, unknown>): void {
  const accepted = solver.properties.parameters;
  if (accepted !== null && typeof accepted === 'object') {
    for (const key of Object.keys(params)) {
      if (!key.startsWith('x_') && !(key in accepted))
        throw invalidArgument(
          `solver ${solver.identity.name} does not accept the parameter ${echo(key)} (it lists ${echo(Object.keys(accepted), 300)})`,
        );
    }
  }
  const range = rangeOf(solver, 'num_reads_range');
  const reads = params.num_reads;
  if (range && typeof reads === 'number' && (reads < range[0] || reads > range[1])) {
    throw invalidArgument(
      `num_reads ${reads} is outside num_reads_range [${range.join(', ')}] of ${solver.identity.name}`,
    );
  }
}

/** With `autoScale` off, refuses a linear bias or coupling outside the solver's h/J ranges. */
export function checkRanges(
  solver: SapiSolver,
  linear: Iterable<number>,
  quadratic: Iterable<number>,
  q: number,
): void {
  const h = rangeOf(solver, 'h_range');
  const j = rangeOf(solver, 'j_range');
  for (const v of h ? linear : []) {
    if (v < h![0] || v > h![1])
      throw invalidArgument(
        `problem ${q}: with autoScale false, a linear bias ${v} is outside h_range [${h!.join(', ')}] of ${solver.identity.name}; lower β or enable autoScale`,
      );
  }
  for (const v of j ? quadratic : []) {
    if (v < j![0] || v > j![1])
      throw invalidArgument(
        `problem ${q}: with autoScale false, a coupling ${v} (chain couplings included) is outside j_range [${j!.join(', ')}] of ${solver.identity.name}; lower β or the chain strength, or enable autoScale`,
      );
  }
}
