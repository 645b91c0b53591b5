// The sampler options a command line gives, in the three forms that survive any shell and nx:
// `--sampler-options JSON`, `--sampler-options @file.json`, and the repeatable
// `--sampler-option key=value` merged over them. A root leaf: the grid tasks declare the flags in
// experiments/taskFlags.ts, `bench sample` and `bench worker` in commands/, and all parse them here.
import { statSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { echo, redactSecrets, splitSecretOptions } from '@boltzmann/ising-core/internal';
import { BenchError } from './benchError.js';
import { MAX_JSON_OPTION_LENGTH, parseJsonObject, repeatable } from './parseValues.js';
import { userPath } from './paths.js';
import { strippedJsonHint } from './strippedJson.js';

const JSON_FLAG = '--sampler-options';
const PAIR_FLAG = '--sampler-option';
/** Keys that would reach an object's prototype instead of an option. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** A JSON number, written as JSON writes it (`007` and `0x10` stay strings). */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

type Options = Record<string, unknown>;

const invalid = (message: string): BenchError => new BenchError('BENCH_INVALID_OPTION', message);

/** The error of a value whose JSON quotes were stripped, with its credentials as `***`. */
function strippedError(subject: string, found: { hint: string; meant: Options }): BenchError {
  return invalid(
    redactSecrets(`${subject}: ${found.hint}`, splitSecretOptions(found.meant).secrets),
  );
}

/**
 * Declares `--sampler-options <json|@file>` and the repeatable `--sampler-option <key=value>`.
 *
 * @param what the help's description of what the options are for.
 * @param fallback `--sampler-options`' default, if any (the grid tasks show `{}`).
 */
export function addSamplerOptionFlags(cmd: Command, what: string, fallback?: string): Command {
  cmd.option(
    `${JSON_FLAG} <json|@file>`,
    `${what}: a JSON object, or @file.json to read it from a file`,
    fallback,
  );
  return cmd.option(
    `${PAIR_FLAG} <key=value>`,
    `one sampler option, merged over ${JSON_FLAG}: numbers, true/false and JSON ({…}, […]) are parsed, anything else is a string; a dotted key sets a nested one (anneal.steps=4); repeatable`,
    repeatable,
    [] as string[],
  );
}

/** The object of `@file.json`, resolved as the user's other paths (userPath). */
function readOptionsFile(spec: string): Options {
  const path = userPath(spec.slice(1));
  const as = `${JSON_FLAG} ${echo(spec)}`;
  if (spec.length === 1) throw invalid(`${JSON_FLAG} @ needs a file name, e.g. @sampler.json`);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw invalid(`${as}: ${path} is not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof BenchError) throw error;
    throw invalid(`${as}: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  // UTF-8 takes at most 4 bytes a character; parseJsonObject bounds the characters.
  if (size > 4 * MAX_JSON_OPTION_LENGTH)
    throw invalid(`${as}: ${path} is ${size.toLocaleString('en-US')} bytes, too large`);
  return parseJsonObject(`${as} (${path})`, readFileSync(path, 'utf8'));
}

/** `--sampler-options`' object: JSON, or `@file`; a JSON whose quotes a shell or nx stripped is named. */
function baseOptions(raw: string): Options {
  if (raw.startsWith('@')) return readOptionsFile(raw);
  const stripped = strippedJsonHint(raw, PAIR_FLAG);
  if (stripped !== undefined) throw strippedError(`${JSON_FLAG} got ${echo(raw)}`, stripped);
  return parseJsonObject(JSON_FLAG, raw);
}

/** A `--sampler-option` value: a number, a boolean, JSON (`{…}`, `[…]`, `"…"`), else the string. */
function pairValue(pair: string, key: string, text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (JSON_NUMBER.test(text)) {
    const n = Number(text);
    if (!Number.isFinite(n))
      throw invalid(`${PAIR_FLAG} ${echo(pair)}: ${text} is not a finite number`);
    return n;
  }
  if (!/^[{["]/.test(text)) return text;
  const stripped = strippedJsonHint(text, PAIR_FLAG, key);
  if (stripped !== undefined) throw strippedError(`${PAIR_FLAG} ${echo(pair)}`, stripped);
  if (text.startsWith('{')) return parseJsonObject(`${PAIR_FLAG} ${key}`, text);
  try {
    return parseJsonObject(PAIR_FLAG, `{"v":${text}}`).v;
  } catch {
    throw invalid(
      `${PAIR_FLAG} ${echo(pair)}: the value starts like JSON (${text[0]}) but is not JSON`,
    );
  }
}

/** `key=value` as the key's path and its value. */
function parsePair(pair: string): { path: string[]; value: unknown } {
  const eq = pair.indexOf('=');
  if (eq < 0) throw invalid(`${PAIR_FLAG} must be key=value (e.g. sweeps=500), got ${echo(pair)}`);
  const key = pair.slice(0, eq).trim();
  const path = key.split('.');
  if (key === '' || path.some((part) => part === ''))
    throw invalid(`${PAIR_FLAG} ${echo(pair)}: the key must be a name or dotted names (a.b)`);
  const bad = path.find((part) => FORBIDDEN_KEYS.has(part));
  if (bad !== undefined) throw invalid(`${PAIR_FLAG} ${echo(pair)}: "${bad}" is not a valid key`);
  const text = pair.slice(eq + 1);
  try {
    return { path, value: pairValue(pair, key, text) };
  } catch (error) {
    if (!(error instanceof BenchError)) throw error;
    // `token=[…` echoes no token: the pair's credentials as `***`.
    const { secrets } = splitSecretOptions(setPath({}, path, text, pair));
    throw invalid(redactSecrets(error.message, secrets));
  }
}

const isObject = (v: unknown): v is Options =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `options` with `value` at `path`, copying each object on the way (the input is not modified). */
function setPath(options: Options, path: readonly string[], value: unknown, pair: string): Options {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...options, [head]: value };
  const inner = Object.hasOwn(options, head) ? options[head] : {};
  if (!isObject(inner))
    throw invalid(
      `${PAIR_FLAG} ${echo(pair)}: "${head}" is ${echo(inner)}, not an object that "${rest.join('.')}" can go in`,
    );
  return { ...options, [head]: setPath(inner, rest, value, pair) };
}

/**
 * The sampler options of a command line: `--sampler-options` (JSON or `@file.json`), then each
 * `--sampler-option key=value` over it, in order (a later one wins). Credentials stay in it: the
 * caller splits them off (`splitSecretOptions`) as for any form.
 *
 * @param json `--sampler-options` as typed, if given.
 * @param pairs every `--sampler-option`, in order.
 * @returns the options, or undefined when neither flag was given.
 * @throws BENCH_INVALID_OPTION for a malformed pair, an unreadable or non-object file, bad JSON
 *   (naming what to do when a shell or nx stripped its quotes), or a pair under a non-object.
 * @example
 * samplerOptionsOf('{"numReads":50}', ['anneal.steps=4', 'fast=true']);
 * // { numReads: 50, anneal: { steps: 4 }, fast: true }
 */
export function samplerOptionsOf(
  json: string | undefined,
  pairs: readonly string[] = [],
): Options | undefined {
  if (json === undefined && pairs.length === 0) return undefined;
  let options = json === undefined ? {} : baseOptions(json);
  for (const pair of pairs) {
    const { path, value } = parsePair(pair);
    options = setPath(options, path, value, pair);
  }
  return options;
}

/** {@link samplerOptionsOf} of what commander parsed (`samplerOptions`, `samplerOption`). */
export function samplerOptionsFromFlags(
  raw: Readonly<Record<string, unknown>>,
): Options | undefined {
  const json = typeof raw.samplerOptions === 'string' ? raw.samplerOptions : undefined;
  const pairs = Array.isArray(raw.samplerOption) ? (raw.samplerOption as string[]) : [];
  return samplerOptionsOf(json, pairs);
}
