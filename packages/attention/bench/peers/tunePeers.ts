// The brief trials of scripts/benchPeers.ts before its rounds (issue 38): each PyTorch peer runs
// once in each thread configuration (bench/peers/peerConfigs.ts), and the fastest is the one
// its figures are measured in. nanoGPT on "as many threads as the engine" had oversubscribed two
// cores (torch's OpenMP and OpenBLAS's pools, both on two threads) and was ~4x slower than it is.
import { describeConfig, fastestConfig, threadConfigs } from './peerConfigs.js';
import type { BlasVerdict, ThreadConfig } from './peerConfigs.js';
import { runNanoGpt, runTwin } from './runPeers.js';

/** The tuned peers: the configuration each measures in (undefined when no trial ran). */
export interface PeerConfigs {
  readonly twin: { readonly softmax?: ThreadConfig; readonly boltzmann?: ThreadConfig };
  readonly nanoGpt?: ThreadConfig | undefined;
}

/** `name` in each configuration (printed with its time), and the fastest. */
function tune(
  name: string,
  cores: number,
  blas: BlasVerdict,
  trial: (config: ThreadConfig) => number | string,
): ThreadConfig | undefined {
  const trials = threadConfigs(cores).map((config) => {
    const ms = trial(config);
    const shown = typeof ms === 'number' ? `${ms.toFixed(1)} ms` : ms;
    console.log(`  ${name}, ${describeConfig(config, blas)}: ${shown}`);
    return { config, ms };
  });
  const best = fastestConfig(trials);
  console.log(`  → ${name}: ${best ? describeConfig(best, blas) : 'no configuration ran'}`);
  return best;
}

/** What the trials run: the Python with torch, its BLAS, and nanoGPT's work folder if any. */
export interface TuneOptions {
  readonly python: string;
  readonly blas: BlasVerdict;
  readonly cores: number;
  /** Steps of the twin's trial (after its warm-up) and iterations of nanoGPT's (after 5). */
  readonly probeSteps: number;
  readonly nanoGptWork: string | undefined;
}

/** Every peer's fastest configuration, from one brief trial per configuration. */
export function tunePeers(o: TuneOptions): PeerConfigs {
  console.log(`\npeer thread configurations (${o.probeSteps} steps each, the fastest is used):`);
  const twin = (variant: string) =>
    tune(`PyTorch twin ${variant}`, o.cores, o.blas, (config) => {
      const figure = runTwin(o.python, variant, o.probeSteps, config);
      return typeof figure === 'string' ? figure : figure.msPerStep;
    });
  const softmax = twin('softmax');
  const boltzmann = twin('boltzmann');
  const work = o.nanoGptWork;
  const nanoGpt =
    work === undefined
      ? undefined
      : tune('nanoGPT', o.cores, o.blas, (config) =>
          // nanoGPT's median skips its first five iterations.
          runNanoGpt(work, o.python, o.probeSteps + 5, config),
        );
  return {
    twin: { ...(softmax && { softmax }), ...(boltzmann && { boltzmann }) },
    nanoGpt,
  };
}
