/*
 * The bench's trust rule for what arrives from Redis (a queued job) or from a model file: it is
 * data. It may choose *what* to compute (variant, T, seed, steps, sampler name, sampler settings
 * such as `numReads` or `chains`), never *where* anything goes or *which code* runs. Endpoints,
 * regions, dry-run folders, data and plugin paths and credentials come only from the command line
 * and environment of the process that runs the sampler.
 */
import { echo, isSecretKey, keyWords } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';

/**
 * Words of an option key that name a place, a transport or code: `endpoint`, `s3Endpoint`,
 * `outputS3Bucket`, `dryRun`, `clientConfig`, `proxyUrl`, `serviceCrn`, … A key is a location when any of its
 * words (ising-core's `keyWords`: camelCase humps, `_`, `-`, `.`, digits) is one of these.
 */
const LOCATION_WORDS: ReadonlySet<string> = new Set([
  'address',
  'base',
  'bucket',
  'callback',
  'client',
  'command',
  // An IBM Cloud resource name (`serviceCrn`): which account's instance runs the job and is billed.
  'crn',
  'dir',
  'directory',
  'domain',
  'dry',
  'endpoint',
  'endpoints',
  'exec',
  'file',
  'filename',
  'files',
  'folder',
  'host',
  'hostname',
  'href',
  'import',
  'module',
  'origin',
  'path',
  'paths',
  'plugin',
  'plugins',
  'port',
  'prefix',
  'profile',
  'proxy',
  'region',
  'regions',
  'require',
  'script',
  'server',
  'servers',
  'socket',
  'uri',
  'url',
  'urls',
  'webhook',
]);

/** Whether an option key names a place or code (see {@link LOCATION_WORDS}). */
export function isLocationKey(key: string): boolean {
  return keyWords(key).some((w) => LOCATION_WORDS.has(w));
}

/**
 * Whether a string value points somewhere: a URL (`scheme://`, `file:`, `data:`), an absolute,
 * home or relative path (`/…`, `~…`, `./…`, `../…`, `C:\…`), a `..` segment, a backslash or a NUL.
 * Device ARNs (`arn:aws:braket:::device/qpu/…`) and solver names are not locations.
 */
export function isLocationValue(value: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ||
    /^(file|data|javascript|blob):/i.test(value) ||
    /^[/~]/.test(value) ||
    /^\.\.?([/\\]|$)/.test(value) ||
    /(^|[/\\])\.\.([/\\]|$)/.test(value) ||
    /^[a-z]:[\\/]/i.test(value) ||
    value.includes('\\') ||
    value.includes('\0')
  );
}

/** One offending entry: where it sits in the options and why it is refused. */
export interface OptionProblem {
  /** Dotted path, arrays as `[i]`: `dryRun.dir`, `servers[0].url`. */
  readonly path: string;
  readonly why: 'location' | 'credential' | 'path or URL value';
}

/**
 * Every entry of `options` that says where something goes or carries a credential, walked to
 * any depth (arrays included). Iterative, so a deep or cyclic value cannot overflow the stack.
 *
 * @param options sampler options read from a job or a model file.
 * @returns the problems, empty when the options are data only.
 */
export function locationProblems(options: unknown): OptionProblem[] {
  const problems: OptionProblem[] = [];
  const seen = new Set<unknown>();
  const stack: [unknown, string][] = [[options, '']];
  while (stack.length > 0 && problems.length < 50) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (isLocationValue(value)) problems.push({ path, why: 'path or URL value' });
      continue;
    }
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [`[${i}]`, v])
      : Object.entries(value);
    for (const [key, v] of entries) {
      const at = key.startsWith('[') ? `${path}${key}` : path === '' ? key : `${path}.${key}`;
      if (key.startsWith('[')) {
        stack.push([v, at]);
      } else if (isLocationKey(key)) {
        problems.push({ path: at, why: 'location' });
      } else if (isSecretKey(key)) {
        problems.push({ path: at, why: 'credential' });
      } else {
        stack.push([v, at]);
      }
    }
  }
  return problems;
}

/**
 * Refuses sampler options from an untrusted source (a queued job, a model file) that say where
 * something goes, which code runs, or carry a credential.
 *
 * @param options the sampler options as read.
 * @param source what they came from, for the message (`job abc…`, `--model m.json`).
 * @param remedy how the user gives such options legitimately.
 * @throws BENCH_FORBIDDEN_OPTION naming each offending entry (by path, never by value).
 * @example
 * assertDataOnly({ numReads: 100, endpoint: 'https://x' }, 'job 7', 'start the worker with --sampler-options');
 * // throws: error [BENCH_FORBIDDEN_OPTION]: job 7 sets samplerOptions.endpoint (a location) …
 */
export function assertDataOnly(options: unknown, source: string, remedy: string): void {
  const problems = locationProblems(options);
  if (problems.length === 0) return;
  const list = problems
    .slice(0, 5)
    .map((p) => `samplerOptions.${echo(p.path, 60).replace(/^"|"$/g, '')} (${describe(p.why)})`)
    .join(', ');
  const more = problems.length > 5 ? ` and ${problems.length - 5} more` : '';
  throw new BenchError(
    'BENCH_FORBIDDEN_OPTION',
    `${source} sets ${list}${more}: a job or model file may choose what to compute, never where requests, files or credentials go; ${remedy}`,
  );
}

function describe(why: OptionProblem['why']): string {
  if (why === 'location') return 'a location';
  if (why === 'credential') return 'a credential';
  return 'a path or URL';
}
