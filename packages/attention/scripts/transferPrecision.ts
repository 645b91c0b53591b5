/**
 * The native transfer kernels' precision against the strength of the couplings, by pass: cases
 * whose every key is scaled to β Σ|J| = `reach` (src/testing/transferChecks.ts strongCouplings,
 * windows to 2β Σ ≤ 599, random signs), windows W, fields uniform in ±3 or to |h| = 1e3, three
 * seeds each. For every row the kernels keep, the largest |∂L/∂h − reference| over the head's
 * largest |∂L/∂h| of all its rows (ising-core's float64 sampler on the same inputs), the worst by the pass that
 * ran the row (float32: sums ≥ 0; float64: −2), and ∂L/∂J's of the kept rows (summed over both
 * passes') over the head's largest |∂L/∂J| of all its rows. This is what the float32 pass's step bound (12 since 7 Dec 2026, 8 before: transfer.c) was read from.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/transferPrecision.ts \
 *     [--backend native|wat] [--windows 3,4,6,8] [--reaches 6,8,12,16,20,30,39] [--seeds 3]
 *
 * `--backend wat`: the WebAssembly kernels (float32 only; the rows they leave go to the sampler).
 */
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';
import { nativeKernels } from '../bench/transfer/rowBenchSetup.js';
import { largeFields, shape, strongCouplings } from '../src/testing/transferChecks.js';
import {
  isingReference,
  nativeTransferRunner,
  watTransferRunner,
} from '../src/testing/transferKernels.js';
import type { TransferCase, TransferRun } from '../src/testing/transferKernels.js';

parseScriptArgs(
  'transferPrecision.ts [--backend VALUE] [--windows VALUE] [--reaches VALUE] [--seeds COUNT]',
  { backend: 'string', windows: 'string', reaches: 'string', seeds: 'string' },
);
const windows = scriptArg('windows', '3,4,6,8').split(',').map(Number);
const reaches = scriptArg('reaches', '6,8,12,16,20,30,39').split(',').map(Number);
const backend = scriptArg('backend', 'native');
if (backend !== 'native' && backend !== 'wat') throw new Error('--backend is native or wat');
const native = backend === 'native' ? nativeKernels() : undefined;
const run = native ? nativeTransferRunner(native.addon, native.isa) : watTransferRunner();
const label = native ? `native ${native.isa}` : 'wat';
/** Seeds 31, 62, 93, … (`--seeds`: how many; 3 unless told). */
const SEEDS = Array.from({ length: Number(scriptArg('seeds', '3')) }, (_, k) => 31 * (k + 1));
if (!(SEEDS.length >= 1)) throw new Error('--seeds is a count of at least 1');

/** Worst ∂L/∂h error of the rows each pass ran, and ∂L/∂J's, over both heads of one run. */
function errors(c: TransferCase, out: TransferRun) {
  const t = c.length;
  const tt = t * t;
  const worst = { float32: 0, float64: 0, gj: 0, rows32: 0, rows64: 0, left: out.left };
  for (let hd = 0; hd < c.heads; hd++) {
    const ref = isingReference(c, out, hd, (p) => out.sums[p] !== -1);
    // The scales: the head's largest ∂L/∂h and ∂L/∂J over every row, the left ones too (the kept
    // rows alone can have next to none: a row of one key has no ∂L/∂h, a frozen row almost none).
    const all = isingReference(c, out, hd, () => true);
    let scale = 1e-30;
    for (const v of all.fields) scale = Math.max(scale, Math.abs(v));
    let scaleJ = 1e-30;
    for (const v of all.couplings) scaleJ = Math.max(scaleJ, Math.abs(v));
    for (let b = 0; b < c.batch; b++)
      for (let i = 0; i < t; i++) {
        const p = (b * c.heads + hd) * t + i;
        const pass = out.sums[p]! >= 0 ? 'float32' : out.sums[p] === -2 ? 'float64' : undefined;
        if (pass === undefined) continue;
        let e = 0;
        for (let k = 0; k <= i; k++)
          e = Math.max(e, Math.abs(out.gh[p * t + k]! - ref.fields[b * tt + i * t + k]!));
        worst[pass] = Math.max(worst[pass], e / scale);
        if (pass === 'float32') worst.rows32++;
        else worst.rows64++;
      }
    const gj = out.gj.subarray(hd * tt, (hd + 1) * tt);
    for (let x = 0; x < tt; x++)
      worst.gj = Math.max(worst.gj, Math.abs(gj[x]! - ref.couplings[x]!) / scaleJ);
  }
  return worst;
}

const fmt = (x: number) => (x === 0 ? '—' : x.toExponential(1));
console.log(`${label}; B 4 × 2 heads × T 40; seeds ${SEEDS.join(', ')}; worst of the seeds`);
console.log(
  '\nW | fields | β Σ|J| a key | rows float32 / float64 / left | ∂L/∂h float32 rows | ∂L/∂h float64 rows | ∂L/∂J',
);
console.log('---|---|---|---|---|---|---');
for (const w of windows)
  for (const fields of [3, 1e3])
    for (const reach of reaches) {
      const base =
        fields === 3
          ? { ...shape([4, 2, 40, w, 1, 1]), fieldScale: 3 }
          : largeFields(shape([4, 2, 40, w, 1, 1]), 1e3, -180, 16);
      const c = strongCouplings(base, reach, 599);
      const all = SEEDS.map((seed) => errors(c, run(c, seed)));
      const max = (k: 'float32' | 'float64' | 'gj') => Math.max(...all.map((e) => e[k]));
      const sum = (k: 'rows32' | 'rows64' | 'left') => all.reduce((s, e) => s + e[k], 0);
      console.log(
        `${w} | ${fields === 3 ? '±3' : 'to 1e3'} | ${reach} | ${sum('rows32')} / ${sum('rows64')} / ${sum('left')} | ${fmt(max('float32'))} | ${fmt(max('float64'))} | ${fmt(max('gj'))}`,
      );
    }
