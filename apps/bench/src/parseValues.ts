import { echo } from '@boltzmann/ising-core/internal';
import { BenchError } from './benchError.js';

const bad = (flag: string, what: string, raw: string): never => {
  throw new BenchError('BENCH_INVALID_OPTION', `${flag} must be ${what}, got ${echo(raw)}`);
};

/** Commander's collector for a repeatable flag (`--plugin a --plugin b`): every value, in order. */
export const repeatable = (value: string, previous: string[]): string[] => [...previous, value];

/** A comma-separated list of items; empty items are an error. */
export function parseList<T>(
  flag: string,
  raw: string,
  item: (s: string) => T | undefined,
  what: string,
): T[] {
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => p === ''))
    bad(flag, `a comma-separated list of ${what}`, raw);
  const out: T[] = [];
  for (const p of parts) {
    const v = item(p);
    if (v === undefined) bad(flag, `a comma-separated list of ${what}`, raw);
    else if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** An integer in [min, max] written in plain decimal. */
export function intItem(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (s: string): number | undefined => {
    if (!/^-?\d+$/.test(s)) return undefined;
    const n = Number(s);
    return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
  };
}

/** A finite number > 0 (an item of a list flag). */
export function positiveItem(s: string): number | undefined {
  const n = Number(s);
  return s !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** One integer flag in [min, max]. */
export function parseInteger(
  flag: string,
  raw: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const v = intItem(min, max)(raw.trim());
  return (
    v ?? bad(flag, `an integer in [${min}, ${max === Number.MAX_SAFE_INTEGER ? '∞' : max}]`, raw)
  );
}

/** One finite number flag, strictly positive unless `allowZero`. */
export function parsePositive(flag: string, raw: string, allowZero = false): number {
  const s = raw.trim();
  const n = s === '' ? Number.NaN : Number(s);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0))
    bad(flag, allowZero ? 'a finite number ≥ 0' : 'a finite number > 0', raw);
  return n;
}

/** A choice among fixed strings. */
export function choiceItem<T extends string>(choices: readonly T[]) {
  return (s: string): T | undefined =>
    (choices as readonly string[]).includes(s) ? (s as T) : undefined;
}

/** `on`/`off` (also true/false, yes/no, 1/0). */
export function onOffItem(s: string): boolean | undefined {
  if (['on', 'true', 'yes', '1'].includes(s)) return true;
  if (['off', 'false', 'no', '0'].includes(s)) return false;
  return undefined;
}

/**
 * `--sampler-timeout SECONDS`: how long one sampler call may take before its run fails with
 * ATTENTION_SAMPLER_TIMEOUT; `0` = no limit.
 *
 * @returns milliseconds, or undefined for the default (`@boltzmann/attention`'s, 30 minutes).
 */
export function parseSamplerTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = parsePositive('--sampler-timeout', raw, true);
  return seconds === 0 ? 0 : Math.max(1, Math.round(seconds * 1000));
}

/** Longest JSON option value accepted, in characters. */
export const MAX_JSON_OPTION_LENGTH = 1 << 20;
/** Deepest nesting of objects and arrays accepted in a JSON option. */
export const MAX_JSON_OPTION_DEPTH = 32;

/** Nesting depth of a parsed JSON value, walked iteratively so a deep value cannot overflow the stack. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Object.values(v as object)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * A JSON object flag (sampler options): at most {@link MAX_JSON_OPTION_LENGTH} characters and
 * {@link MAX_JSON_OPTION_DEPTH} levels of nesting, so a hostile value cannot exhaust memory or
 * the stack of the code that walks it later. Errors echo a bounded part of the value.
 */
export function parseJsonObject(flag: string, raw: string): Record<string, unknown> {
  if (raw.length > MAX_JSON_OPTION_LENGTH) {
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `${flag} is ${raw.length.toLocaleString('en-US')} characters long; the limit is ${MAX_JSON_OPTION_LENGTH.toLocaleString('en-US')}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `${flag} must be a JSON object, got ${echo(raw)} (${(error as Error).message})`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `${flag} must be a JSON object such as '{"seed":1}', got ${echo(raw)}`,
    );
  }
  if (jsonDepth(value, MAX_JSON_OPTION_DEPTH) > MAX_JSON_OPTION_DEPTH) {
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `${flag} is nested more than ${MAX_JSON_OPTION_DEPTH} levels deep`,
    );
  }
  return value as Record<string, unknown>;
}
