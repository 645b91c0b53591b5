import { echo } from '@boltzmann/ising-core/internal';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IsingBatch, SampleResult, Sampler } from '@boltzmann/ising-core';
import { AdapterError, invalidArgument } from './errors.js';

/**
 * Dry-run settings shared by both plugins: write what would be sent, send nothing.
 *
 * @category Dry runs and costs
 */
export interface DryRunOptions {
  /** Directory that receives one sub-directory per `sample()` call (`dwave-0001/`, `braket-0001/`, …). */
  readonly dir: string;
  /**
   * Who answers after the files are written: a sampler object with `sample(batch)`, or `'dqa'` for
   * dqa-sim's simulator (JSON-friendly; the braket plugin passes its `anneal` options and `shots`, the
   * dwave plugin `shots = numReads`). Without one, `sample()` throws `ADAPTER_DRY_RUN`.
   */
  readonly fallback?: Sampler | 'dqa';
  /** Options for the `'dqa'` fallback, over the plugin's defaults. */
  readonly fallbackOptions?: Readonly<Record<string, unknown>>;
}

/**
 * Writes the files of one dry-run call into its own numbered sub-directory.
 *
 * @category Dry runs and costs
 */
export interface DryRunWriter {
  /** The root directory. */
  readonly dir: string;
  /** Starts call number `k` (1, 2, …) and returns its directory writer. */
  nextCall(prefix: string): DryRunCall;
}

/**
 * The files of one dry-run call.
 *
 * @category Dry runs and costs
 */
export interface DryRunCall {
  /** Absolute or relative path of this call's directory. */
  readonly dir: string;
  /** Names of the files written so far, in order. */
  readonly files: string[];
  /** Writes pretty-printed JSON. */
  json(name: string, value: unknown): void;
  /** Writes text as is. */
  text(name: string, value: string): void;
}

/**
 * Creates a dry-run writer for `dir` (created if missing).
 *
 * Pass `{ dryRun: { dir } }` to a plugin instead when you only need the plugin's files; this is
 * for tools that write their own.
 *
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for an empty directory name.
 * @example
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { createDryRunWriter } from '@boltzmann/quantum-adapters';
 *
 * const writer = createDryRunWriter(mkdtempSync(join(tmpdir(), 'dry-')));
 * const call = writer.nextCall('dwave'); // a numbered folder for one call's requests
 * call.json('request.json', { problems: 1 });
 * @category Dry runs and costs
 */
export function createDryRunWriter(dir: string): DryRunWriter {
  if (typeof dir !== 'string' || dir.trim() === '')
    throw invalidArgument(`dry-run directory must be a non-empty path, got ${echo(dir)}`);
  const counters = new Map<string, number>();
  return {
    dir,
    nextCall(prefix) {
      const k = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, k);
      const callDir = join(dir, `${prefix}-${String(k).padStart(4, '0')}`);
      mkdirSync(callDir, { recursive: true });
      const files: string[] = [];
      return {
        dir: callDir,
        files,
        json(name, value) {
          writeFileSync(join(callDir, name), `${JSON.stringify(value, null, 2)}\n`);
          files.push(name);
        },
        text(name, value) {
          writeFileSync(join(callDir, name), value);
          files.push(name);
        },
      };
    },
  };
}

/** The error a dry run ends with when no fallback sampler was given. */
export function dryRunError(call: DryRunCall, what: string): AdapterError {
  return new AdapterError(
    'ADAPTER_DRY_RUN',
    `dry run: ${what} written to ${call.dir} (${call.files.length} files) and nothing was sent; pass dryRun.fallback to get samples from a local sampler`,
    { reason: 'rejected', retryable: false },
  );
}

/**
 * Answers a dry-run call from the configured fallback, or returns `undefined` when there is none.
 * @internal
 */
export function dryRunFallback(
  options: DryRunOptions,
  defaults: Record<string, unknown>,
): ((batch: IsingBatch) => Promise<SampleResult>) | undefined {
  const { fallback } = options;
  if (fallback === undefined) return undefined;
  if (fallback === 'dqa') {
    let sampler: Promise<Sampler> | undefined;
    return async (batch) => {
      sampler ??= import('@boltzmann/dqa-sim').then(({ dqaSampler }) =>
        dqaSampler.create({ ...defaults, ...options.fallbackOptions }),
      );
      return (await sampler).sample!(batch);
    };
  }
  if (typeof fallback === 'object' && fallback !== null && typeof fallback.sample === 'function') {
    return async (batch) => fallback.sample!(batch);
  }
  throw invalidArgument(
    `dryRun.fallback must be 'dqa' or a sampler with sample(batch), got ${typeof fallback === 'object' ? 'an object without sample()' : echo(fallback)}`,
  );
}
