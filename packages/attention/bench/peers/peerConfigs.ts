// Pure helpers of scripts/benchPeers.ts for the peers' thread configurations and their BLAS
// (issue 38): on two cores, torch's OpenMP threads and OpenBLAS's own threads oversubscribed
// the machine and made nanoGPT ~4x slower than it is. No I/O here, so a test checks the logic.

/**
 * The threads of one PyTorch process: torch's intra-op pool (`torch.set_num_threads`, or
 * OMP_NUM_THREADS for a program that does not set it), OpenMP's and OpenBLAS's.
 */
export interface ThreadConfig {
  readonly torch: number;
  readonly omp: number;
  readonly openblas: number;
}

/**
 * The configurations worth trying on `cores` cores: everything on one thread; torch and OpenMP
 * on all cores with OpenBLAS on one; OpenBLAS on all cores with torch and OpenMP on one. Never
 * both pools above one thread: each would take every core and the two fight over them.
 */
export function threadConfigs(cores: number): ThreadConfig[] {
  const one = { torch: 1, omp: 1, openblas: 1 };
  if (cores <= 1) return [one];
  return [one, { torch: cores, omp: cores, openblas: 1 }, { torch: 1, omp: 1, openblas: cores }];
}

/**
 * Variables that pin OpenBLAS to an older kernel on some machines (the image sets them for old
 * OpenBLAS builds); a benchmark peer runs without them, on the kernel OpenBLAS picks itself.
 */
const PINNED_KERNEL = ['OPENBLAS_CORETYPE', 'OPENBLAS_L2_SIZE'];

/** `base` without the pinned OpenBLAS kernel and with the thread variables of `config`. */
export function peerEnv(base: NodeJS.ProcessEnv, config: ThreadConfig): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base))
    if (!PINNED_KERNEL.includes(key) && value !== undefined) env[key] = value;
  return {
    ...env,
    OMP_NUM_THREADS: String(config.omp),
    OPENBLAS_NUM_THREADS: String(config.openblas),
    // MKL (a pip wheel's BLAS) runs on OpenMP's threads.
    MKL_NUM_THREADS: String(config.omp),
  };
}

/** Which BLAS a torch process runs on; only `reference` invalidates its figures. */
export interface BlasVerdict {
  readonly kind: 'openblas' | 'reference' | 'other' | 'unknown';
  /** As the table prints it: `OpenBLAS (pthread)`, `reference BLAS`, `MKL`, … */
  readonly label: string;
}

/**
 * The BLAS of a torch process from the libraries it mapped after a matrix product (its
 * /proc/self/maps) and torch's own `BLAS_INFO` (a pip wheel links MKL statically, so no file
 * shows it). Debian's torch calls the libblas.so.3 alternative: OpenBLAS's when
 * libopenblas0-pthread (or -openmp, -serial) is installed, else the netlib reference
 * implementation, 3–8x slower here.
 */
export function blasVerdict(libraries: readonly string[], blasInfo = ''): BlasVerdict {
  const openblas = libraries.find((path) => /openblas/i.test(path));
  if (openblas !== undefined) {
    const flavour = /openblas-(\w+)/i.exec(openblas)?.[1];
    return { kind: 'openblas', label: flavour ? `OpenBLAS (${flavour})` : 'OpenBLAS' };
  }
  const other = /mkl|blis|atlas/i.exec([...libraries, blasInfo].join(' '))?.[0];
  if (other !== undefined) return { kind: 'other', label: other.toUpperCase() };
  if (libraries.some((path) => /libblas\.so/.test(path)))
    return { kind: 'reference', label: 'reference BLAS' };
  return { kind: 'unknown', label: 'BLAS unknown' };
}

/** What the table prints beside a peer's figure, e.g. `torch 1 thread, OMP 1, OpenBLAS 1 (pthread)`. */
export function describeConfig(config: ThreadConfig, blas: BlasVerdict): string {
  const torch = `torch ${config.torch} thread${config.torch === 1 ? '' : 's'}, OMP ${config.omp}`;
  return blas.kind === 'openblas'
    ? `${torch}, ${blas.label.replace('OpenBLAS', `OpenBLAS ${config.openblas}`)}`
    : `${torch}, ${blas.label}`;
}

/** One configuration's brief trial: its time (lower is faster), or why it failed. */
export interface ConfigTrial<Config = ThreadConfig> {
  readonly config: Config;
  readonly ms: number | string;
}

/** The configuration of the fastest trial that ran, or undefined when none did. */
export function fastestConfig<Config>(trials: readonly ConfigTrial<Config>[]): Config | undefined {
  let best: { config: Config; ms: number } | undefined;
  for (const { config, ms } of trials)
    if (typeof ms === 'number' && (best === undefined || ms < best.ms)) best = { config, ms };
  return best?.config;
}

/** Why a peer figure measured on `blas` is no measure: the reference BLAS. */
export const invalidOn = (blas: BlasVerdict | undefined): string | undefined =>
  blas?.kind === 'reference' ? 'reference BLAS' : undefined;
