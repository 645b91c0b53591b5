/**
 * A typed array of real numbers accepted as input. Kernels compute in float64 inside.
 *
 * @category Problems
 */
export type RealArray = Float32Array | Float64Array;

/**
 * A value or a promise of it: samplers may answer synchronously or asynchronously.
 *
 * @category Plugins
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A batch of Ising problems that share one coupling matrix — the shape of one attention
 * call: every query is a problem, the causal prefix of query `i` has `i + 1` spins, and
 * all queries see the same `J` restricted to their prefix.
 *
 * Problem `q` has `spins[q]` spins; its fields are `fields[q * stride + j]` for
 * `j < spins[q]`; its couplings are the top-left `spins[q] × spins[q]` block of
 * `couplings` (row-major `stride × stride`, strict upper triangle used). The energy is
 * `E(s) = -Σ_j h_j s_j - Σ_{j<k} J_jk s_j s_k` and `p(s) ∝ exp(-β E(s))`.
 * @summary A batch of Ising problems that share one coupling matrix.
 * @category Problems
 */
export interface IsingBatch {
  /** Number of problems. */
  readonly size: number;
  /** Row stride of `fields` and side of `couplings`: the largest spin count allowed. */
  readonly stride: number;
  /** Spin count of each problem (`1 ≤ spins[q] ≤ stride`). */
  readonly spins: Int32Array;
  /** `size × stride` fields, row-major; entries at `j ≥ spins[q]` are ignored. */
  readonly fields: Float64Array;
  /** `stride × stride` couplings, row-major; only the strict upper triangle is read. */
  readonly couplings: Float64Array;
  /** Inverse temperature. */
  readonly beta: number;
}

/**
 * Gradients of a scalar loss with respect to a batch's inputs.
 *
 * @category Exact
 */
export interface IsingGradients {
  /** ∂L/∂h in the layout of {@link IsingBatch.fields}; zero beyond each problem's spins. */
  readonly fields: Float64Array;
  /** ∂L/∂J as `stride × stride`, strict upper triangle filled, zeros elsewhere. */
  readonly couplings: Float64Array;
}

/**
 * What the attention layer needs from any sampler: magnetizations and a vector–Jacobian product.
 *
 * The VJP is synchronous (it works on what the estimate already holds), even when producing the
 * estimate was asynchronous (remote hardware).
 * @category Samplers
 */
export interface BatchEstimate {
  /** `⟨s_j⟩` per problem, in the layout of {@link IsingBatch.fields}; zero beyond `spins[q]`. */
  readonly magnetization: Float64Array;
  /** Maps ∂L/∂m (layout of `magnetization`) to ∂L/∂h and ∂L/∂J. */
  vjp(gradMagnetization: Float64Array): IsingGradients;
  /** Convergence figures of an iterative sampler (mean-field, tap); absent for the others. */
  readonly diagnostics?: ConvergenceDiagnostics;
  /**
   * `P(s_j = +1)` (layout of `magnetization`), for samplers that can give it without the
   * cancellation of `(1 + m)/2` where it is tiny (`'exact'`, `'transfer-matrix'`). Attention
   * takes α from it when present; `estimateBatch` checks it (finite, in [0, 1], `2P − 1 = m`).
   */
  readonly probabilityUp?: Float64Array;
}

/**
 * How an iterative sampler's fixed points converged, per problem.
 *
 * A problem that missed its tolerance keeps its last iterate; it is counted in `missed`, never
 * silently passed off as converged (and the sampler throws instead only when asked to with
 * `onNonConvergence: 'throw'`).
 * @category Samplers
 */
export interface ConvergenceDiagnostics {
  /** Iterations each problem took. */
  readonly iterations: Int32Array;
  /** Final residual of each problem, in the sampler's own (relative) measure. */
  readonly residual: Float64Array;
  /** The tolerance the residuals are compared with. */
  readonly tolerance: number;
  /** Problems whose residual is above the tolerance. */
  readonly missed: number;
  /** True when every problem met the tolerance (`missed === 0`). */
  readonly converged: boolean;
}

/**
 * Samples of one problem: `count` distinct or repeated states of `spins` spins, row-major
 * ±1 values, each with a weight (e.g. D-Wave's `num_occurrences`; 1 for plain samples).
 * @category Samplers
 */
export interface SampleSet {
  readonly spins: number;
  /** `states.length === weights.length * spins`; entries are −1 or +1. */
  readonly states: Int8Array;
  /** Non-negative weight of each state (occurrences). */
  readonly weights: Float64Array;
}

/**
 * A sampler's raw answer for a batch: either one dense distribution per problem
 * (`2^n` probabilities, bit `j` of the index set ⇔ `s_j = +1`), or one sample set per problem.
 * @category Samplers
 */
export type SampleResult =
  | { readonly kind: 'dense'; readonly distributions: readonly Float64Array[] }
  | { readonly kind: 'samples'; readonly sets: readonly SampleSet[] };

/**
 * What a sampler can do; the bench and the layer read it to pick and to warn.
 *
 * @category Samplers
 */
export interface SamplerCapabilities {
  /** True when results are the exact Boltzmann moments (up to rounding). */
  readonly exact: boolean;
  /** Largest spin count per problem the sampler accepts. */
  readonly maxSpins: number;
  /** True when `estimate`/`sample` may return a promise. */
  readonly async: boolean;
  /** True when the same options (including the seed) give the same answer. */
  readonly deterministic: boolean;
  /**
   * True for samplers that send problems off the machine (QPUs, cloud simulators) and accept a
   * `dryRun: { dir }` option that writes the requests instead of sending them. The bench's
   * `--dry-run` runs such samplers' dry runs; it never names hardware samplers itself.
   */
  readonly dryRun?: boolean;
  /**
   * True for samplers that send problems off the machine (QPUs, cloud simulators), where a call
   * may spend the user's account. Applications let only the user's own command line choose such a
   * sampler, never data such as a model file.
   */
  readonly remote?: boolean;
  /**
   * The couplings the sampler takes, when it does not take every J: `banded` (the transfer
   * matrix). It refuses a batch outside them; an application checks its models against them before
   * a run with `couplingBandwidth(capabilities, options)`. Absent: any couplings.
   */
  readonly couplings?: BandedCouplings;
}

/**
 * A sampler that takes only banded couplings: every J_ij with |i − j| above a width is zero. The
 * width is the sampler option `widthOption` when given, else `defaultWidth`.
 * @category Samplers
 */
export interface BandedCouplings {
  readonly form: 'banded';
  /** The option of `create` that sets the width (the transfer matrix's `bandwidth`). */
  readonly widthOption: string;
  /** The width when that option is not given. */
  readonly defaultWidth: number;
}

/**
 * A configured sampler. Implement `estimate` (moments + VJP directly) or `sample`
 * (a distribution or sample set; `ising-core` derives moments and VJPs from it), or both.
 * @category Samplers
 */
export interface Sampler {
  readonly name: string;
  readonly capabilities: SamplerCapabilities;
  estimate?(batch: IsingBatch): MaybePromise<BatchEstimate>;
  sample?(batch: IsingBatch): MaybePromise<SampleResult>;
  /** Release workers, sockets, … Safe to call twice. */
  dispose?(): MaybePromise<void>;
}

/**
 * A sampler plugin: a plain object the application registers in a
 * {@link SamplerRegistry}. A third-party plugin is a module whose default export is one.
 * @category Plugins
 */
export interface SamplerPlugin<
  TOptions = Record<string, unknown>,
  TSampler extends Sampler = Sampler,
  TName extends string = string,
> {
  /** Unique name the bench and registry use (`'exact'`, `'gibbs'`, `'dqa'`, …); a literal type names it in a typed registry. */
  readonly name: TName;
  readonly version: string;
  readonly description?: string;
  readonly capabilities: SamplerCapabilities;
  /**
   * Dotted paths of the options that hold credentials (`['token']`,
   * `['clientConfig.credentials']`). Applications never write these down: the bench strips them
   * (and any key that looks like a credential) from everything it hashes, saves or prints.
   */
  readonly secretOptions?: readonly string[];
  /**
   * The options `create` reads, described as data (dimod's `parameters`): what `bench samplers`
   * prints and the reference lists, so they are learned without making a mistake first.
   */
  readonly options?: readonly SamplerOptionSpec[];
  /** Builds a sampler from user options (validated by the plugin). */
  create(options?: TOptions): TSampler;
}

/**
 * One option of a plugin's `create`, as data (see `optionSpecs`).
 *
 * @category Plugins
 */
export interface SamplerOptionSpec {
  /** The key in the options object (`'seed'`, `'chains'`). */
  readonly name: string;
  /** Its type in TypeScript's words (`'number'`, `"'random' | 'up' | 'down'"`, `'object'`). */
  readonly type: string;
  /** The default, as text; absent when there is none (a required option, or a callback). */
  readonly default?: string;
  /** What it does, in a sentence. */
  readonly doc: string;
}

/**
 * Any plugin, whatever its options, sampler and name types.
 *
 * @category Plugins
 */
// biome-ignore lint/suspicious/noExplicitAny: `create(options)` takes each plugin's own options type; only `any` accepts them all.
export type AnySamplerPlugin = SamplerPlugin<any, Sampler, string>;

/**
 * The plugins a typed registry knows: name → plugin type (built up by `register`).
 *
 * @category Plugins
 */
export type SamplerPluginMap = { readonly [name: string]: AnySamplerPlugin };

/**
 * An explicit, instance-scoped set of sampler plugins.
 *
 * See `createSamplerRegistry`. Typed: each `register` adds the plugin's name and type to
 * `TPlugins`, so that `registry.require('dwave')` (on a registry built with
 * `.register(dwaveSampler)`) returns the dwave plugin type, whose `create` returns the dwave
 * sampler type. Names the type does not know (a plugin loaded by path) still work, as
 * `AnySamplerPlugin`.
 * @category Plugins
 */
export interface SamplerRegistry<TPlugins extends SamplerPluginMap = Record<never, never>> {
  /** Adds a plugin; throws `ISING_SAMPLER_DUPLICATE` on a taken name, `ISING_REGISTRY_FROZEN` after `freeze()`. */
  register<P extends AnySamplerPlugin>(
    plugin: P,
  ): SamplerRegistry<TPlugins & { readonly [K in P['name']]: P }>;
  /** The plugin of that name, or `undefined`. */
  get<K extends keyof TPlugins & string>(name: K): TPlugins[K] | undefined;
  get(name: string): AnySamplerPlugin | undefined;
  /** The plugin of that name; throws `ISING_SAMPLER_NOT_FOUND` listing the known names. */
  require<K extends keyof TPlugins & string>(name: K): TPlugins[K];
  require(name: string): AnySamplerPlugin;
  has(name: string): boolean;
  /** Registered plugins in registration order. */
  list(): readonly AnySamplerPlugin[];
  /** Forbids further registration. */
  freeze(): SamplerRegistry<TPlugins>;
}
