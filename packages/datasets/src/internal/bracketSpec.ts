import { DatasetError } from '../errors.js';
import { assertIntInRange, describe } from './assert.js';
import type { BracketMode } from './bracketTable.js';

/** The pairs in type order; type t opens with `PAIRS[t][0]` and closes with `PAIRS[t][1]`. */
export const PAIRS = [
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
] as const;
/** Longest supported string: the count table holds (T+1)(T+2) bigints. */
export const MAX_BRACKET_T = 1024;

export function checkBracketSpec(
  T: unknown,
  mode: unknown,
  types: unknown,
): { T: number; mode: BracketMode; types: 1 | 2 | 3 } {
  if (mode !== 'balanced' && mode !== 'prefix') {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `mode must be 'balanced' or 'prefix', got ${describe(mode)}`,
    );
  }
  if (types !== 1 && types !== 2 && types !== 3) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `types must be 1, 2 or 3 (() [] {}), got ${describe(types)}`,
    );
  }
  const t = assertIntInRange('T', T, 2, MAX_BRACKET_T);
  if (mode === 'balanced' && t % 2 !== 0) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `balanced strings need an even T, got T = ${t} (use mode 'prefix' for odd lengths)`,
    );
  }
  return { T: t, mode, types };
}
