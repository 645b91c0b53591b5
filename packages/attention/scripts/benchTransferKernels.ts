/**
 * The native transfer-matrix kernels timed outside Node: native/transferTiming/transferTiming.c,
 * linked with the kernel sources as binding.gyp compiles them for one ISA (src/testing/isaBuild.ts;
 * the widest the addon picks here unless told), on one head of `--batch` sequences of `--length`
 * keys at each window of `--windows`. Per window: the fastest forward call, backward call, and
 * forward + backward pair (alternating, as a training step calls them), the median over
 * `--rounds` runs of the binary, and the pair's ns a vector state (one window state of every
 * lane). The smallest window's pair against the largest's is the share of the time that does not
 * depend on the window (per position and lane: field factors, directions, read-outs). No engine,
 * scheduler or JavaScript runs beside the kernels, so rounds agree far better than benchTransfer's.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchTransferKernels.ts \
 *     [--isa avx512|avx2|base] [--batch 8] [--length 256] [--windows 2,8] [--calls 7] [--rounds 3]
 */
import { arch, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';
import { compileHarness, type IsaBuild, runHarness } from '../src/testing/isaBuild.js';
import { loadNativeAddon } from '../src/engine/native/nativeAddon.js';

parseScriptArgs(
  'benchTransferKernels.ts [--isa VALUE] [--batch N] [--length N] [--windows LIST] [--calls N] [--rounds N]',
  {
    isa: 'string',
    batch: 'string',
    length: 'string',
    windows: 'string',
    calls: 'string',
    rounds: 'string',
  },
);
const positive = (name: string, fallback: string) => {
  const value = Number(scriptArg(name, fallback));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} is a positive integer`);
  return value;
};
if (arch() !== 'x64')
  throw new Error(`benchTransferKernels builds x86-64 kernels; this host is ${arch()}`);
const isa = scriptArg('isa', loadNativeAddon().addon?.isas()[0] ?? 'base');
const LANES: Record<string, number> = { avx512: 16, avx2: 8, base: 4 };
if (LANES[isa] === undefined) throw new Error(`--isa is one of ${Object.keys(LANES).join(', ')}`);
const [batch, length, calls, rounds] = [
  positive('batch', '8'),
  positive('length', '256'),
  positive('calls', '7'),
  positive('rounds', '3'),
];
const windows = scriptArg('windows', '2,8').split(',').map(Number);
if (windows.some((w) => !Number.isInteger(w) || w < 1 || w > 12))
  throw new Error('--windows are integers from 1 to 12');

const build: IsaBuild = { isa, arch: 'x64', cc: 'gcc', runner: [] };
const binary = compileHarness(
  build,
  join(tmpdir(), `boltzmann-transferTiming-${isa}`),
  'transferTiming',
);

interface Timing {
  readonly ms: number;
  readonly states: number;
  readonly left: number;
}
const time = (window: number, mode: string): Timing =>
  JSON.parse(runHarness(build, binary, [batch, length, window, calls, mode].map(String))) as Timing;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
console.log(
  `transfer kernels, native ${isa} outside Node: one head, B ${batch} × T ${length}; fastest of ${calls} calls, median of ${rounds} rounds`,
);
console.log(
  '\nW | forward ms | backward ms | forward + backward ms | ns a vector state | rows left',
);
console.log('---|---|---|---|---|---');
const pairs = new Map<number, number>();
for (const window of windows) {
  const runs = { f: [] as number[], b: [] as number[], fb: [] as number[] };
  let last: Timing | undefined;
  for (let r = 0; r < rounds; r++)
    for (const mode of ['f', 'b', 'fb'] as const) {
      last = time(window, mode);
      runs[mode].push(last.ms);
    }
  const pair = median(runs.fb);
  pairs.set(window, pair);
  const perState = (1e6 * pair) / (last!.states / LANES[isa]!);
  console.log(
    `${window} | ${median(runs.f).toFixed(2)} | ${median(runs.b).toFixed(2)} | ${pair.toFixed(2)} | ${perState.toFixed(2)} | ${last!.left}`,
  );
}
const [small, large] = [Math.min(...windows), Math.max(...windows)];
if (small < large)
  console.log(
    `\nat W = ${small} the pair takes ${((100 * pairs.get(small)!) / pairs.get(large)!).toFixed(0)} % of its time at W = ${large}: about that share of the W = ${large} time does not depend on the window`,
  );
console.log(
  `load average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
