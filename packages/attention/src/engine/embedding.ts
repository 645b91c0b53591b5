/**
 * The engine's embedding: `x[n] = E[token_n] (+ P[position_n])` into an `N × d` stream, and its
 * backward, which scatters the stream's gradient into the rows of E (and P) it came from.
 */

/** Offsets of the token table, the position table (-1 for none), the stream and the sizes. */
export interface EmbeddingArgs {
  readonly tokens: ArrayLike<number>;
  readonly length: number;
  readonly dModel: number;
  readonly table: number;
  readonly positions: number;
  readonly x: number;
}

/** x = E[tokens] (+ P[0..T)). */
export function embeddingForward(f: Float32Array, a: EmbeddingArgs): void {
  const { tokens, length: t, dModel: d } = a;
  for (let n = 0; n < tokens.length; n++) {
    const row = a.x + n * d;
    const e = a.table + tokens[n]! * d;
    if (a.positions < 0) f.copyWithin(row, e, e + d);
    else {
      const p = a.positions + (n % t) * d;
      for (let c = 0; c < d; c++) f[row + c] = f[e + c]! + f[p + c]!;
    }
  }
}

/** dE[token_n] += g[n] and dP[position_n] += g[n]; `dTable`, `dPositions` are gradient offsets. */
export function embeddingBackward(
  f: Float32Array,
  a: Omit<EmbeddingArgs, 'table' | 'positions' | 'x'> & {
    g: number;
    dTable: number;
    dPositions: number;
  },
): void {
  const { tokens, length: t, dModel: d } = a;
  for (let n = 0; n < tokens.length; n++) {
    const g = a.g + n * d;
    const e = a.dTable + tokens[n]! * d;
    for (let c = 0; c < d; c++) f[e + c] = f[e + c]! + f[g + c]!;
    if (a.dPositions < 0) continue;
    const p = a.dPositions + (n % t) * d;
    for (let c = 0; c < d; c++) f[p + c] = f[p + c]! + f[g + c]!;
  }
}
