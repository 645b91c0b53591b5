// A JSON option whose double quotes were stripped on the way (`{sweeps:500}` for '{"sweeps":500}':
// nx re-quotes the arguments after `--` without them, and so do some shells and CI runners),
// recognized and answered with the forms that survive: `--sampler-option key=value`, `@file.json`,
// or escaped quotes. A root leaf, read by samplerOptionFlags.ts.

/** A value of the stripped form: an object, an array, or a bare word (the text as typed). */
type Loose = { readonly [key: string]: Loose } | readonly Loose[] | string;

/** Reads the stripped form: `{a:1,b:{c:x}}`, `[1,2]`, bare words; undefined if it is not that. */
class LooseReader {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The whole text as one value, or undefined. */
  read(): Loose | undefined {
    const value = this.value(0);
    return value !== undefined && this.at === this.text.length ? value : undefined;
  }

  private value(depth: number): Loose | undefined {
    if (depth > 32) return undefined;
    const ch = this.text[this.at];
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    const end = this.text.slice(this.at).search(/[,{}[\]]|$/);
    const word = this.text.slice(this.at, this.at + end).trim();
    this.at += end;
    return word === '' ? undefined : word;
  }

  private object(depth: number): Loose | undefined {
    const out: Record<string, Loose> = {};
    this.at += 1;
    if (this.text[this.at] === '}') return this.closed(out);
    for (;;) {
      const key = /^\s*([^\s:,{}[\]]+)\s*:/.exec(this.text.slice(this.at));
      if (!key) return undefined;
      this.at += key[0].length;
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      out[key[1]!] = value;
      const next = this.text[this.at];
      this.at += 1;
      if (next === '}') return out;
      if (next !== ',') return undefined;
    }
  }

  private array(depth: number): Loose | undefined {
    const out: Loose[] = [];
    this.at += 1;
    if (this.text[this.at] === ']') return this.closed(out);
    for (;;) {
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      out.push(value);
      const next = this.text[this.at];
      this.at += 1;
      if (next === ']') return out;
      if (next !== ',') return undefined;
    }
  }

  private closed<T>(value: T): T {
    this.at += 1;
    return value;
  }
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** What the user most likely typed: bare words as numbers, booleans, null or strings. */
function typed(value: Loose): unknown {
  if (typeof value === 'string') {
    if (NUMBER.test(value)) return Number(value);
    if (value === 'true' || value === 'false') return value === 'true';
    return value === 'null' ? null : value;
  }
  if (Array.isArray(value)) return value.map(typed);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typed(v)]));
}

/** A value nx passes on as it is: no quotes, spaces or shell characters to lose. */
const SAFE = /^[\w.:/@+-]+$/;

/** `key=value` pairs for a stripped object, or undefined when one would not survive nx. */
function pairsOf(value: Loose, prefix: string): string[] | undefined {
  if (typeof value === 'string') return SAFE.test(value) ? [`${prefix}=${value}`] : undefined;
  if (Array.isArray(value)) {
    const plain = value.every(
      (v) => typeof v === 'string' && /^(-?[\d.eE+-]+|true|false)$/.test(v),
    );
    return plain && value.length > 0 ? [`${prefix}=[${value.join(',')}]`] : undefined;
  }
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const more = pairsOf(v, prefix === '' ? key : `${prefix}.${key}`);
    if (more === undefined) return undefined;
    out.push(...more);
  }
  return out.length > 0 ? out : undefined;
}

/**
 * When `raw` is a JSON object or array whose double quotes were stripped (it has none, it does
 * not parse as JSON, and it reads as bare keys and words), what to do instead, and the options
 * the user meant (for the caller to redact their credentials from the hint); else undefined.
 *
 * @param raw the option's value as the bench received it.
 * @param pairFlag the repeatable `key=value` flag to suggest.
 * @param key the key `raw` is the value of (a `key={…}` pair), prefixed to the suggested keys.
 * @example
 * strippedJsonHint('{sweeps:500}', '--sampler-option')?.hint;
 * // 'its double quotes were stripped … Use --sampler-option sweeps=500, or …'
 */
export function strippedJsonHint(
  raw: string,
  pairFlag: string,
  key = '',
): { hint: string; meant: Record<string, unknown> } | undefined {
  const text = raw.trim();
  if (!/^[{[]/.test(text) || text.includes('"') || text.length > 4096) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // Not JSON: the stripped form, if it reads as one.
  }
  const loose = new LooseReader(text).read();
  if (loose === undefined || typeof loose === 'string') return undefined;
  // The options object the user meant (under `key` for a pair's value); a bare array is not one.
  let meant = typed(loose);
  for (const part of key
    .split('.')
    .filter((p) => p !== '')
    .reverse())
    meant = { [part]: meant };
  if (Array.isArray(meant) || meant === null || typeof meant !== 'object') return undefined;
  const json = JSON.stringify(meant);
  const pairs = pairsOf(loose, key);
  const pairForm =
    pairs === undefined ? '' : `${pairs.map((p) => `${pairFlag} ${p}`).join(' ')}, or `;
  const hint =
    `its double quotes were stripped (nx and some shells remove them; you meant ${json}). ` +
    `Use ${pairForm}put the JSON in a file and pass --sampler-options @file.json, ` +
    `or escape the quotes: --sampler-options '${json.replaceAll('"', '\\"')}'`;
  return { hint, meant: meant as Record<string, unknown> };
}
