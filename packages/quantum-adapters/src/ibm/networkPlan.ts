// The shape of the swap network for one coupling pattern: where each logical spin starts on the
// line, which pairs the first layer acts on, and how many odd–even layers every coupling needs.

/**
 * A swap network on a line of n positions. Layer ℓ acts on the position pairs `(p, p + 1)` with
 * `p ≡ ℓ + parity (mod 2)`. Layers 1 … L − 2 swap every active pair; the first and the last layer
 * swap nothing (a swap there would only relabel the start or the end), so `L ≤ 2` needs no swap.
 */
export interface NetworkPlan {
  /** Logical spin at each position before the first layer. */
  readonly start: readonly number[];
  readonly parity: 0 | 1;
  /** Layers L per Trotter step (0 when there is no coupling). */
  readonly layers: number;
}

/** Largest n whose start arrangement is searched (a pass costs about n⁴/4 steps). */
const SEARCH_MAX_N = 32;
/** Plans kept for reuse: a batch's problems of one size share their coupling pattern. */
const CACHE_SIZE = 128;
const cache = new Map<string, NetworkPlan>();
/** Improvement passes of the local search. */
const MAX_PASSES = 64;

/** `[L, pairs met in the last layer, Σ meeting layers]`: compared lexicographically, lower is better. */
type Cost = readonly [number, number, number];

const less = (a: Cost, b: Cost): boolean =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];

/**
 * Runs the all-swap odd–even network from `arrangement` until every needed pair (key `j·n + k`,
 * j < k) has been adjacent in an active pair, and scores it. Every pair meets within n layers
 * (n layers reverse the line), so the cost is finite.
 */
function evaluate(
  arrangement: readonly number[],
  parity: 0 | 1,
  needed: ReadonlySet<number>,
): Cost {
  const n = arrangement.length;
  const at = [...arrangement];
  let met = 0;
  let last = -1;
  let atLast = 0;
  let sum = 0;
  for (let layer = 0; layer < n && met < needed.size; layer++) {
    for (let p = (layer + parity) % 2; p + 1 < n; p += 2) {
      const a = at[p]!;
      const b = at[p + 1]!;
      if (needed.has(a < b ? a * n + b : b * n + a)) {
        met++;
        sum += layer;
        if (layer > last) {
          last = layer;
          atLast = 0;
        }
        atLast++;
      }
      at[p] = b;
      at[p + 1] = a;
    }
  }
  return [last + 1, atLast, sum];
}

/** Best-improvement local search over transpositions of the start arrangement. */
function improve(
  arrangement: number[],
  parity: 0 | 1,
  needed: ReadonlySet<number>,
): { arrangement: number[]; cost: Cost } {
  const n = arrangement.length;
  let cost = evaluate(arrangement, parity, needed);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let move: [number, number] | undefined;
    let bestCost = cost;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        [arrangement[i], arrangement[j]] = [arrangement[j]!, arrangement[i]!];
        const c = evaluate(arrangement, parity, needed);
        if (less(c, bestCost)) {
          bestCost = c;
          move = [i, j];
        }
        [arrangement[i], arrangement[j]] = [arrangement[j]!, arrangement[i]!];
      }
    }
    if (move === undefined) break;
    const [i, j] = move;
    [arrangement[i], arrangement[j]] = [arrangement[j]!, arrangement[i]!];
    cost = bestCost;
  }
  return { arrangement, cost };
}

/**
 * Plans the swap network for the couplings `needed` (keys `j·n + k`, j < k) of an n-spin problem.
 * Dense couplings need all n layers from any start. Sparser ones (banded J) need fewer when the
 * start is chosen well: from the identity, a chain's neighbours (2i+1, 2i+2) move apart in the
 * first layer and meet only after ~n layers. So the start is searched (deterministically): seeds
 * `0,1,2,…` and `1,0,3,2,…` with both parities, each improved by swapping two spins while L
 * (then the pairs left for the last layer, then the mean meeting layer) drops. A chain then takes
 * 2 layers, i.e. no swap at all. Plans are cached by coupling pattern (the last 128).
 *
 * @param n spins on the line.
 * @param needed the pairs with a coupling.
 * @returns the plan (for the first layer drawn without its swaps, see {@link NetworkPlan}).
 */
export function planNetwork(n: number, needed: ReadonlySet<number>): NetworkPlan {
  const key = `${n}:${[...needed].sort((a, b) => a - b).join(',')}`;
  let plan = cache.get(key);
  if (plan === undefined) {
    plan = searchPlan(n, needed);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, plan);
  }
  return plan;
}

function searchPlan(n: number, needed: ReadonlySet<number>): NetworkPlan {
  const identity = Array.from({ length: n }, (_, i) => i);
  if (needed.size === 0) return { start: identity, parity: 0, layers: 0 };
  let best = { arrangement: identity, parity: 0 as 0 | 1, cost: evaluate(identity, 0, needed) };
  if (needed.size < (n * (n - 1)) / 2 && n <= SEARCH_MAX_N) {
    const paired = identity.map((i) => (i % 2 === 0 ? Math.min(i + 1, n - 1) : i - 1));
    if (n % 2 === 1) paired[n - 1] = n - 1;
    for (const seed of [identity, paired]) {
      for (const parity of [0, 1] as const) {
        const found = improve([...seed], parity, needed);
        if (less(found.cost, best.cost)) best = { ...found, parity };
      }
    }
  }
  // The first layer keeps its pairs but not their swap: start from the arrangement after it.
  const start = [...best.arrangement];
  for (let p = best.parity; p + 1 < n; p += 2)
    [start[p], start[p + 1]] = [start[p + 1]!, start[p]!];
  return { start, parity: best.parity, layers: best.cost[0] };
}
