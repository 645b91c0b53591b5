import type { Rng } from '@boltzmann/ising-core';
import { DatasetError } from './errors.js';
import { assertIntInRange, describe } from './internal/assert.js';
import { PAIRS, checkBracketSpec } from './internal/bracketSpec.js';
import { bracketTable } from './internal/bracketTable.js';
import type { BracketMode, BracketTable } from './internal/bracketTable.js';
import { uniformBigInt } from './internal/uniformBigInt.js';

export type { BracketMode } from './internal/bracketTable.js';

/**
 * Number of bracket types: 1 = `()`, 2 = `()[]`, 3 = `()[]{}`.
 *
 * @category Brackets
 */
export type BracketTypes = 1 | 2 | 3;

/**
 * Default bound on {@link enumerateBracketStrings}: spaces up to this size are listed in full.
 *
 * @category Brackets
 */
export const DEFAULT_ENUMERATION_LIMIT = 200_000;

/**
 * The number of distinct bracket strings of length T, exactly (a bigint: with 3 types the
 * count passes 2^53 already at T = 44).
 *
 * One type: balanced strings number Catalan(T/2) (14 / 132 / 1430 at T = 8 / 12 / 16) and Dyck
 * prefixes C(T, ⌊T/2⌋) (70 / 924 / 12870). With k types every opener carries one of k types.
 *
 * @param T string length (≥ 2; even for `balanced`).
 * @param mode `'balanced'` (default) or `'prefix'`.
 * @param types 1–3 bracket types (default 1).
 * @returns the count.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for an odd balanced T, T < 2, or types ∉ {1,2,3}.
 * @example
 * import { countBracketStrings } from '@boltzmann/datasets';
 *
 * console.log(countBracketStrings(16, 'balanced')); // 1430n
 * console.log(countBracketStrings(16, 'prefix')); // 12870n
 * @category Brackets
 */
export function countBracketStrings(
  T: number,
  mode: BracketMode = 'balanced',
  types: BracketTypes = 1,
): bigint {
  const spec = checkBracketSpec(T, mode, types);
  return bracketTable(spec.T, spec.mode, spec.types).total;
}

// Rank order: at every position the branches are "open type 0", …, "open type k−1", then "close".
function unrank(table: BracketTable, rank: bigint): string {
  const { T, types } = table;
  const stack: number[] = [];
  let out = '';
  let r = rank;
  for (let i = 0; i < T; i++) {
    const h = stack.length;
    const each = table.count(i + 1, h + 1);
    let opened = false;
    for (let t = 0; t < types; t++) {
      if (r < each) {
        stack.push(t);
        out += PAIRS[t]![0];
        opened = true;
        break;
      }
      r -= each;
    }
    if (!opened) out += PAIRS[stack.pop()!]![1];
  }
  return out;
}

/**
 * The string of a given rank (0-based) in the enumeration order of {@link enumerateBracketStrings}.
 *
 * @param T string length.
 * @param mode string mode.
 * @param types number of bracket types.
 * @param rank an integer in [0, countBracketStrings(T, mode, types)).
 * @returns the string.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad spec or an out-of-range rank.
 * @example
 * import { bracketStringAt } from '@boltzmann/datasets';
 *
 * console.log(bracketStringAt(4, 'balanced', 1, 0n)); // '(())'
 * @category Brackets
 */
export function bracketStringAt(
  T: number,
  mode: BracketMode,
  types: BracketTypes,
  rank: bigint | number,
): string {
  const spec = checkBracketSpec(T, mode, types);
  const table = bracketTable(spec.T, spec.mode, spec.types);
  const r = typeof rank === 'number' && Number.isSafeInteger(rank) ? BigInt(rank) : rank;
  if (typeof r !== 'bigint' || r < 0n || r >= table.total) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `rank must be an integer in [0, ${table.total}), got ${describe(rank)}`,
    );
  }
  return unrank(table, r);
}

/**
 * The rank of a string in the enumeration order, the inverse of {@link bracketStringAt}.
 *
 * @param s a valid string of the spec (length T; balanced in `'balanced'` mode; at most `types` types).
 * @param mode string mode.
 * @param types number of bracket types.
 * @returns its rank in [0, countBracketStrings(s.length, mode, types)).
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT when `s` is not a string of that spec.
 * @example
 * import { bracketStringRank } from '@boltzmann/datasets';
 *
 * console.log(bracketStringRank('()()', 'balanced', 1)); // 1n
 * @category Brackets
 */
export function bracketStringRank(s: string, mode: BracketMode, types: BracketTypes): bigint {
  if (typeof s !== 'string')
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `expected a bracket string, got ${describe(s)}`,
    );
  const spec = checkBracketSpec(s.length, mode, types);
  const table = bracketTable(spec.T, spec.mode, spec.types);
  const invalid = (why: string) =>
    new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `${describe(s)} is not a '${spec.mode}' string with ${spec.types} type(s): ${why}`,
    );
  const stack: number[] = [];
  let r = 0n;
  for (let i = 0; i < spec.T; i++) {
    const c = s[i]!;
    const each = table.count(i + 1, stack.length + 1);
    const t = PAIRS.findIndex((pair) => pair[0] === c);
    if (t >= 0) {
      if (t >= spec.types)
        throw invalid(
          `${JSON.stringify(c)} at position ${i} is not among the first ${spec.types} type(s)`,
        );
      r += BigInt(t) * each;
      stack.push(t);
      continue;
    }
    const open = stack.pop();
    if (open === undefined || PAIRS[open]![1] !== c)
      throw invalid(`${JSON.stringify(c)} at position ${i} has no matching opener`);
    r += BigInt(spec.types) * each;
  }
  if (spec.mode === 'balanced' && stack.length > 0)
    throw invalid(`${stack.length} bracket(s) left open`);
  return r;
}

/**
 * Draws one bracket string uniformly from all typed strings of the given spec.
 *
 * Algorithm (path counting): draw a rank uniformly from [0, N) with N the exact count (bigint
 * rejection sampling on 32-bit words of `rng`, so no modulo bias), then walk the string left to
 * right: at position i with h open brackets, the k opener branches each cover count(i+1, h+1)
 * ranks and the closer covers count(i+1, h−1). Every string has exactly one rank, so each one
 * has probability exactly 1/N. Equivalently, an opener is chosen with probability
 * k·count(i+1,h+1)/count(i,h) and its type uniformly; weighting by k per opener is what keeps
 * Dyck prefixes uniform over *typed* strings, since prefixes with more unclosed openers carry
 * more type choices.
 *
 * @param T string length.
 * @param mode `'balanced'` or `'prefix'`.
 * @param types 1–3.
 * @param rng the shared seeded generator.
 * @returns the string, e.g. `'([]){}'`.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad spec.
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 * import { sampleBracketString } from '@boltzmann/datasets';
 *
 * console.log(sampleBracketString(16, 'prefix', 2, createRng(7))); // uniform over the 16-character prefixes
 * @category Brackets
 */
export function sampleBracketString(
  T: number,
  mode: BracketMode,
  types: BracketTypes,
  rng: Rng,
): string {
  const spec = checkBracketSpec(T, mode, types);
  const table = bracketTable(spec.T, spec.mode, spec.types);
  return unrank(table, uniformBigInt(rng, table.total));
}

/**
 * Lists every string of the spec, in rank order (see {@link bracketStringAt}).
 *
 * @param T string length.
 * @param mode string mode (default `'balanced'`).
 * @param types 1–3 (default 1).
 * @param limit refuse when there are more strings than this (default 200,000).
 * @returns all strings.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad spec or a space larger than `limit`.
 * @example
 * import { enumerateBracketStrings } from '@boltzmann/datasets';
 *
 * console.log(enumerateBracketStrings(6, 'balanced')); // ['((()))', '(()())', '(())()', '()(())', '()()()']
 * @category Brackets
 */
export function enumerateBracketStrings(
  T: number,
  mode: BracketMode = 'balanced',
  types: BracketTypes = 1,
  limit: number = DEFAULT_ENUMERATION_LIMIT,
): string[] {
  const spec = checkBracketSpec(T, mode, types);
  assertIntInRange('limit', limit, 0);
  const table = bracketTable(spec.T, spec.mode, spec.types);
  if (table.total > BigInt(limit)) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `T = ${spec.T}, mode '${spec.mode}', ${spec.types} type(s) has ${table.total} strings, more than the limit ${limit}`,
    );
  }
  const out: string[] = [];
  const chars: string[] = new Array<string>(spec.T);
  const stack: number[] = [];
  // Depth-first in branch order reproduces the rank order; dead branches are cut by the table.
  const walk = (i: number): void => {
    if (i === spec.T) {
      out.push(chars.join(''));
      return;
    }
    const h = stack.length;
    if (table.count(i + 1, h + 1) > 0n) {
      for (let t = 0; t < spec.types; t++) {
        chars[i] = PAIRS[t]![0];
        stack.push(t);
        walk(i + 1);
        stack.pop();
      }
    }
    if (h > 0 && table.count(i + 1, h - 1) > 0n) {
      const t = stack.pop()!;
      chars[i] = PAIRS[t]![1];
      walk(i + 1);
      stack.push(t);
    }
  };
  walk(0);
  return out;
}
