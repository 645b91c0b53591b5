import type { BracketTypes } from './bracketStrings.js';
import { DatasetError } from './errors.js';
import { describe } from './internal/assert.js';
import { PAIRS } from './internal/bracketSpec.js';

/**
 * A batch of bracket strings encoded for the matching task, row-major `batchSize × T`:
 * `tokens[b·T + p]` is the id of character p (see {@link bracketVocab}); at a closing bracket
 * `targets` holds the position of its matching opening bracket (in 0..p−1) and `mask` is 1;
 * elsewhere `targets` is −1 and `mask` is 0.
 * @summary A batch of bracket strings encoded for the matching task, row-major `batchSize × T`.
 * @category Brackets
 */
export interface BracketBatch {
  readonly strings: readonly string[];
  readonly tokens: Int32Array;
  readonly targets: Int32Array;
  readonly mask: Float32Array;
  readonly batchSize: number;
  readonly T: number;
  /** Number of closing brackets in the batch (the sum of `mask`). */
  readonly closingCount: number;
}

const ID = new Map<string, number>(
  PAIRS.flatMap((pair, t) => [[pair[0], 2 * t] as const, [pair[1], 2 * t + 1] as const]),
);

/**
 * The token vocabulary of k bracket types: `['(', ')']`, `['(', ')', '[', ']']` or all six.
 *
 * Ids are the indices: opener of type t is 2t, closer 2t+1 — so the ids of a 1-type string are the
 * same under every k.
 *
 * @param types 1–3.
 * @returns the characters in id order.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT when types ∉ {1, 2, 3}.
 * @example
 * import { bracketVocab } from '@boltzmann/datasets';
 *
 * console.log(bracketVocab(2)); // ['(', ')', '[', ']']
 * @category Brackets
 */
export function bracketVocab(types: BracketTypes): readonly string[] {
  if (types !== 1 && types !== 2 && types !== 3) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `types must be 1, 2 or 3, got ${describe(types)}`,
    );
  }
  return PAIRS.slice(0, types).flatMap((pair) => [pair[0], pair[1]]);
}

/**
 * For every position of a valid bracket string (balanced or a Dyck prefix), the position of the
 * matching opening bracket if it is a closing bracket, else −1. Found with a stack.
 *
 * @param s the string, over `()[]{}`.
 * @returns the match positions.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for another character, a closer without an
 *   opener, or a closer of the wrong type.
 * @example
 * import { matchBrackets } from '@boltzmann/datasets';
 *
 * console.log(matchBrackets('([])(')); // Int32Array [-1, -1, 1, 0, -1]
 * @category Brackets
 */
export function matchBrackets(s: string): Int32Array {
  if (typeof s !== 'string')
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `expected a bracket string, got ${describe(s)}`,
    );
  const out = new Int32Array(s.length).fill(-1);
  const stack: number[] = [];
  for (let p = 0; p < s.length; p++) {
    const id = ID.get(s[p]!);
    if (id === undefined) {
      throw new DatasetError(
        'DATASET_INVALID_ARGUMENT',
        `character ${JSON.stringify(s[p])} at position ${p} of ${describe(s)} is not a bracket`,
      );
    }
    if (id % 2 === 0) {
      stack.push(p);
      continue;
    }
    const open = stack.pop();
    if (open === undefined || ID.get(s[open]!) !== id - 1) {
      throw new DatasetError(
        'DATASET_INVALID_ARGUMENT',
        `closing ${JSON.stringify(s[p])} at position ${p} of ${describe(s)} has no matching opener`,
      );
    }
    out[p] = open;
  }
  return out;
}

/**
 * Encodes equal-length bracket strings into tokens, pointer targets and a loss mask.
 *
 * @param strings one or more valid bracket strings, all of the same length.
 * @returns the batch.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for an empty list, unequal lengths or an invalid string.
 * @example
 * import { encodeBracketStrings } from '@boltzmann/datasets';
 *
 * const { tokens, targets, mask } = encodeBracketStrings(['(())', '()()']);
 * console.log(tokens, mask);
 * console.log(targets); // [-1, -1, 1, 0,  -1, 0, -1, 2]
 * @category Brackets
 */
export function encodeBracketStrings(strings: readonly string[]): BracketBatch {
  if (!Array.isArray(strings) || strings.length === 0) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `strings must be a non-empty array, got ${describe(strings)}`,
    );
  }
  const T = typeof strings[0] === 'string' ? strings[0].length : 0;
  const batchSize = strings.length;
  const tokens = new Int32Array(batchSize * T);
  const targets = new Int32Array(batchSize * T);
  const mask = new Float32Array(batchSize * T);
  let closingCount = 0;
  strings.forEach((s, b) => {
    if (typeof s !== 'string' || s.length !== T || T === 0) {
      throw new DatasetError(
        'DATASET_INVALID_ARGUMENT',
        `string ${b} must be a non-empty bracket string of length ${T}, got ${describe(s)}`,
      );
    }
    const match = matchBrackets(s);
    for (let p = 0; p < T; p++) {
      tokens[b * T + p] = ID.get(s[p]!)!;
      targets[b * T + p] = match[p]!;
      if (match[p]! >= 0) {
        mask[b * T + p] = 1;
        closingCount++;
      }
    }
  });
  return {
    strings: Object.freeze([...strings]),
    tokens,
    targets,
    mask,
    batchSize,
    T,
    closingCount,
  };
}
