/**
 * The native harnesses' builds: the kernels of one ISA compiled as binding.gyp compiles them (its
 * kernel sources, cflags, the ISA target's defines and flags, and node-gyp's own Release flags on
 * Linux), linked with a harness, and run. The ISA check (native/isaCheck/README.md), for arm64
 * NEON with a cross compiler and qemu-aarch64 on any host that has them; the transfer kernels'
 * timing (native/transferTiming/, scripts/benchTransferKernels.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's folder (this file is src/testing/isaBuild.ts). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** node-gyp's Release flags for every C file on Linux (its common.gypi; -m64 on x64 only). */
const NODE_GYP_CFLAGS = [
  '-fPIC',
  '-pthread',
  '-Wall',
  '-Wextra',
  '-Wno-unused-parameter',
  '-O3',
  '-fno-omit-frame-pointer',
];

/** The harness's own flags: no contraction, so its inputs and scales are the same on every ISA. */
const HARNESS_CFLAGS = ['-O2', '-std=gnu11', '-ffp-contract=off', '-Wall', '-Wextra'];

/** One build of the check: an ISA of binding.gyp, its compiler, and how to run what it links. */
export interface IsaBuild {
  /** binding.gyp's name of the ISA (its target kernels_<isa>): `base`, `avx2`, `neon`, … */
  readonly isa: string;
  /** binding.gyp's target_arch of that target: `x64` or `arm64`. */
  readonly arch: 'x64' | 'arm64';
  readonly cc: string;
  /** The command (and its first arguments) that runs the linked binary, before its path. */
  readonly runner: readonly string[];
  /** Flags after binding.gyp's (the diagnostic build without contraction adds -ffp-contract=off). */
  readonly extraFlags?: readonly string[];
}

/** arm64 NEON through Debian's cross compiler and qemu-user. */
export function neonBuild(extraFlags: readonly string[] = []): IsaBuild {
  return {
    isa: 'neon',
    arch: 'arm64',
    cc: 'aarch64-linux-gnu-gcc',
    runner: ['qemu-aarch64', '-L', '/usr/aarch64-linux-gnu'],
    extraFlags,
  };
}

/** x86-64's portable baseline (SSE2), natively. */
export const BASE_BUILD: IsaBuild = { isa: 'base', arch: 'x64', cc: 'gcc', runner: [] };

type Gyp = Record<string, unknown>;

/** binding.gyp as data: a Python literal with # comments and trailing commas. */
function readGyp(): Gyp {
  const text = readFileSync(join(ROOT, 'binding.gyp'), 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(text) as Gyp;
}

/** A gyp list with its `<@(variable)` entries expanded. */
function expand(list: unknown, variables: Gyp): string[] {
  return ((list ?? []) as string[]).flatMap((item) => {
    const named = /^<@\((\w+)\)$/.exec(item);
    return named === null ? [item] : ((variables[named[1]!] ?? []) as string[]);
  });
}

/** The compiler flags and sources binding.gyp gives kernels_<isa> on `arch`. */
export function gypKernelBuild(isa: string, arch: string): { flags: string[]; sources: string[] } {
  const gyp = readGyp();
  const variables = gyp.variables as Gyp;
  const defaults = gyp.target_defaults as Gyp;
  const conditions = gyp.conditions as [string, { targets: Gyp[] }][];
  const arm = conditions.find(([when]) => when === `target_arch=='${arch}'`);
  const target = arm?.[1].targets.find((t) => t.target_name === `kernels_${isa}`);
  if (target === undefined) throw new Error(`binding.gyp has no kernels_${isa} for ${arch}`);
  const flags = [
    ...NODE_GYP_CFLAGS,
    ...(arch === 'x64' ? ['-m64'] : []),
    ...expand(defaults.cflags_c, variables),
    ...expand(target.cflags_c, variables),
    ...expand(target.defines, variables).map((d) => `-D${d}`),
    ...expand(defaults.include_dirs, variables).map((d) => `-I${join(ROOT, d)}`),
  ];
  const sources = expand(target.sources, variables).map((s) => join(ROOT, s));
  return { flags, sources };
}

/** Runs a command; its stdout, or an Error naming the command and its stderr. */
function run(command: readonly string[], cwd?: string): string {
  const out = spawnSync(command[0]!, command.slice(1), {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (out.status !== 0)
    throw new Error(
      `${command.join(' ')} failed (${out.error?.message ?? `exit ${out.status}`}):\n${out.stderr}`,
    );
  return out.stdout;
}

/** Why `build` cannot be made and run here (a tool missing), or undefined. */
export function missingTools(build: IsaBuild): string | undefined {
  for (const tool of [build.cc, ...build.runner.slice(0, 1)]) {
    const probe = spawnSync(tool, ['--version'], { encoding: 'utf8' });
    if (probe.status !== 0) return `${tool} not found (${probe.error?.message ?? probe.stderr})`;
  }
  return undefined;
}

/**
 * Compiles `build` (binding.gyp's kernels and a harness: the C files of native/<harness>, the ISA
 * check's unless told) into `dir` (made); the binary's path.
 */
export function compileHarness(build: IsaBuild, dir: string, harness = 'isaCheck'): string {
  const folder = join(ROOT, 'native', harness);
  mkdirSync(dir, { recursive: true });
  const { flags, sources } = gypKernelBuild(build.isa, build.arch);
  const extra = build.extraFlags ?? [];
  const objects: string[] = [];
  for (const source of sources) {
    const object = join(dir, `kernel_${basename(source, '.c')}.o`);
    run([build.cc, ...flags, ...extra, '-c', source, '-o', object]);
    objects.push(object);
  }
  const define = flags.filter((f) => f.startsWith('-D') || f.startsWith('-I'));
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.c'))) {
    const object = join(dir, `harness_${basename(file, '.c')}.o`);
    run([build.cc, ...HARNESS_CFLAGS, ...define, '-c', join(folder, file), '-o', object]);
    objects.push(object);
  }
  const binary = join(dir, `${harness}_${build.isa}`);
  run([build.cc, ...objects, '-o', binary, '-lm']);
  return binary;
}

/** Runs a binary of `build` with `args`: the harness's text. */
export function runHarness(build: IsaBuild, binary: string, args: readonly string[] = []): string {
  return run([...build.runner, binary, ...args]);
}
