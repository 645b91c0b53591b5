// The conformance suite's check names and options, and the settings its checks resolve from them.

/**
 * The names of the conformance checks, in the order the suite runs them.
 *
 * @category Conformance
 */
export const CONFORMANCE_CHECKS = [
  'plugin-shape',
  'create',
  'single-spin',
  'two-spin',
  'random-batch',
  'range',
  'input-intact',
  'vjp-shape',
  'vjp-accuracy',
  'determinism',
  'sync-contract',
  'spin-limit',
] as const;

/**
 * One conformance check (see {@link CONFORMANCE_CHECKS}).
 *
 * @category Conformance
 */
export type ConformanceCheck = (typeof CONFORMANCE_CHECKS)[number];

/**
 * What each check asks of a sampler, in words: a test title for each check.
 *
 * @category Conformance
 */
export const CONFORMANCE_TITLES: Readonly<Record<ConformanceCheck, string>> = {
  'plugin-shape': 'has a name, a version and well-formed capabilities',
  create: 'creates a sampler from the given options (dispose is safe twice)',
  'single-spin': 'gives m ≈ ±tanh(4) for one spin in a field of ±4',
  'two-spin': 'matches the exact moments of a two-spin ferromagnet',
  'random-batch': 'matches exact Boltzmann magnetizations on a random causal batch (B=2, T=4)',
  range: 'returns finite magnetizations in [−1, 1], zero beyond each problem',
  'input-intact': 'leaves the batch and the upstream gradient unmodified',
  'vjp-shape':
    'returns VJPs in the batch layout: zeros beyond each problem and on/below the diagonal',
  'vjp-accuracy': 'returns VJPs close to the exact covariance gradients',
  determinism: 'gives identical answers for identical options when it claims to be deterministic',
  'sync-contract': 'answers synchronously unless capabilities.async',
  'spin-limit': 'refuses more spins than capabilities.maxSpins with ISING_TOO_MANY_SPINS',
};

/**
 * Options of the conformance suite.
 *
 * @category Conformance
 */
export interface SamplerConformanceOptions<TOptions = unknown> {
  /** Options passed to `plugin.create` (use a fixed seed for stochastic samplers). */
  readonly createOptions?: TOptions;
  /**
   * Largest allowed absolute errors against exact Boltzmann values: `magnetization`
   * (default 0.05) and `gradient` for the VJP entries (default 0.15).
   */
  readonly tolerance?: { readonly magnetization?: number; readonly gradient?: number };
  /**
   * Compare with exact Boltzmann moments (default true). False, for samplers that target another
   * distribution: the one-spin check only asks that each spin follows its field's sign, and the
   * exact-value checks (two-spin values, random batch, VJP accuracy) are left out.
   */
  readonly exactReference?: boolean;
  /** Standard deviation of the random batch's fields (default 1). */
  readonly fieldScale?: number;
  /** Standard deviation of the random batch's couplings (default 0.5); approximate samplers may ask for weaker ones. */
  readonly couplingScale?: number;
  /** Seed of the random batch and upstream gradient (default 1). */
  readonly seed?: number;
  /** Checks to leave out, each with a reason you can state. */
  readonly skip?: readonly ConformanceCheck[];
}

/** Resolved settings shared by the checks. */
export interface Settings {
  readonly createOptions: unknown;
  readonly magnetization: number;
  readonly gradient: number;
  readonly exactReference: boolean;
  readonly fieldScale: number;
  readonly couplingScale: number;
  readonly seed: number;
}

export function settingsOf(options: SamplerConformanceOptions): Settings {
  return {
    createOptions: options.createOptions,
    magnetization: options.tolerance?.magnetization ?? 0.05,
    gradient: options.tolerance?.gradient ?? 0.15,
    exactReference: options.exactReference ?? true,
    fieldScale: options.fieldScale ?? 1,
    couplingScale: options.couplingScale ?? 0.5,
    seed: options.seed ?? 1,
  };
}
