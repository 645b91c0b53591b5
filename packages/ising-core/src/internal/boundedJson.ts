/**
 * Bounded JSON for `echo()`: a value whose JSON would be larger than {@link WHOLE_JSON_LIMIT}
 * is never passed to `JSON.stringify` whole. Below that, `JSON.stringify` itself runs (exact
 * output, its own handling of cycles and `toJSON`); above it, only a head is written.
 */

/** Largest estimated JSON length (characters) that `echo` builds whole to measure it exactly. */
export const WHOLE_JSON_LIMIT = 1 << 20;

/** Nodes the size estimate visits at most before calling the value huge. */
const MAX_ESTIMATE_NODES = 1 << 18;

/**
 * A lower bound on the length of `JSON.stringify(value)`, or `Infinity` once it passes `limit`
 * (or the walk passes {@link MAX_ESTIMATE_NODES} nodes). Iterative, each object counted once, so
 * cycles and deep nesting cost no stack.
 */
export function estimateJsonLength(value: unknown, limit = WHOLE_JSON_LIMIT): number {
  let total = 0;
  let nodes = 0;
  const seen = new WeakSet<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (++nodes > MAX_ESTIMATE_NODES) return Number.POSITIVE_INFINITY;
    if (typeof v === 'string') total += v.length + 3;
    else if (typeof v === 'number') total += 2;
    else if (v !== null && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      if (ArrayBuffer.isView(v)) {
        // `{"0":x,…}`: at least six characters per element, without enumerating the keys.
        total += 6 * ((v as { length?: number }).length ?? v.byteLength);
      } else if (Array.isArray(v)) {
        total += 2 + v.length;
        if (total > limit) return Number.POSITIVE_INFINITY;
        for (let i = 0; i < v.length; i++) stack.push(v[i]);
      } else {
        total += 2;
        for (const key in v) {
          if (!Object.hasOwn(v, key)) continue;
          total += key.length + 4;
          if (total > limit) return Number.POSITIVE_INFINITY;
          stack.push((v as Record<string, unknown>)[key]);
        }
      }
    } else total += 1;
    if (total > limit) return Number.POSITIVE_INFINITY;
  }
  return total;
}

/** Thrown inside {@link jsonHead} once the head is long enough. */
class Full extends Error {}

/** Thrown inside {@link jsonHead} on a cycle: `JSON.stringify` would throw too. */
class Cyclic extends Error {}

/**
 * The first `budget` characters (or a few more) of the value's JSON, written item by item so a
 * huge array, object or string is never serialized whole. Follows `JSON.stringify` for plain
 * data (`toJSON`, `undefined` and functions dropped from objects and `null` in arrays,
 * non-finite numbers as `null`); throws {@link Cyclic} on a cycle.
 */
export function jsonHead(value: unknown, budget: number): string {
  const out: string[] = [];
  let length = 0;
  const ancestors = new Set<object>();
  const emit = (s: string): void => {
    out.push(s);
    length += s.length;
    if (length > budget) throw new Full();
  };
  const write = (v: unknown, inArray: boolean): void => {
    if (
      v !== null &&
      typeof v === 'object' &&
      typeof (v as { toJSON?: unknown }).toJSON === 'function'
    )
      v = (v as { toJSON(key: string): unknown }).toJSON('');
    if (typeof v === 'string') {
      emit(JSON.stringify(v.slice(0, Math.max(0, budget - length + 1))).slice(0, -1));
      emit('"');
    } else if (typeof v === 'number') emit(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'boolean' || v === null) emit(String(v));
    else if (typeof v === 'bigint') emit(`${v}n`);
    else if (typeof v !== 'object') emit(inArray ? 'null' : '');
    else {
      if (ancestors.has(v)) throw new Cyclic();
      ancestors.add(v);
      if (Array.isArray(v)) {
        emit('[');
        for (let i = 0; i < v.length; i++) {
          if (i > 0) emit(',');
          write(v[i], true);
        }
        emit(']');
      } else {
        emit('{');
        let first = true;
        const entry = (key: string, item: unknown): void => {
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') return;
          emit(`${first ? '' : ','}${JSON.stringify(key.slice(0, budget))}:`);
          first = false;
          write(item, false);
        };
        if (ArrayBuffer.isView(v)) {
          const items = v as unknown as ArrayLike<unknown>;
          for (let i = 0; i < (items.length ?? 0); i++) entry(String(i), items[i]);
        } else {
          for (const key in v)
            if (Object.hasOwn(v, key)) entry(key, (v as Record<string, unknown>)[key]);
        }
        emit('}');
      }
      ancestors.delete(v);
    }
  };
  try {
    write(value, false);
  } catch (e) {
    if (!(e instanceof Full)) throw e;
  }
  return out.join('');
}
