/**
 * String modes: balanced strings, or Dyck prefixes (every closer matched, openers may stay open).
 *
 * @category Brackets
 */
export type BracketMode = 'balanced' | 'prefix';

/**
 * Completion counts of typed bracket strings of length T.
 *
 * `count(i, h)` is the number of ways to finish a valid string from position i with h brackets
 * open: `count(T, h) = [h = 0]` (balanced) or `1` (prefix), and
 * `count(i, h) = k · count(i+1, h+1) + [h > 0] · count(i+1, h−1)` — an opener may take any of the
 * k types, a closer's type is forced by the innermost open bracket. The counts are exact bigints.
 */
export interface BracketTable {
  readonly T: number;
  readonly mode: BracketMode;
  readonly types: number;
  /** count(0, 0): the number of distinct strings. */
  readonly total: bigint;
  count(i: number, h: number): bigint;
}

const cache = new Map<string, BracketTable>();

export function bracketTable(T: number, mode: BracketMode, types: number): BracketTable {
  const key = `${T}|${mode}|${types}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const width = T + 2; // h ranges over 0..T+1 so count(i+1, h+1) never reads outside a row
  const counts: bigint[] = new Array<bigint>((T + 1) * width).fill(0n);
  for (let h = 0; h < width; h++) counts[T * width + h] = mode === 'prefix' || h === 0 ? 1n : 0n;
  const k = BigInt(types);
  for (let i = T - 1; i >= 0; i--) {
    for (let h = 0; h <= T; h++) {
      const open = k * counts[(i + 1) * width + h + 1]!;
      const close = h > 0 ? counts[(i + 1) * width + h - 1]! : 0n;
      counts[i * width + h] = open + close;
    }
  }
  const table: BracketTable = {
    T,
    mode,
    types,
    total: counts[0]!,
    count: (i, h) => (i >= 0 && i <= T && h >= 0 && h < width ? counts[i * width + h]! : 0n),
  };
  cache.set(key, table);
  return table;
}
