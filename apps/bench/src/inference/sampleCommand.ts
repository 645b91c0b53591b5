// What a `bench sample` invocation is, a leaf of types: its flags (commands/sample.ts), the parent
// process (sampleRun.ts) and the child's messages (sampleMessages.ts) all read it.

/** A parsed and validated `bench sample` invocation. */
export interface SampleCommand {
  /** Absolute path of a `--save-models` file (`{ id, config, model }`) or a bare `TransformerJSON`. */
  readonly modelPath: string;
  /** The text the generation continues; its last `maxLength` characters are the first context. */
  readonly prompt: string;
  /** Print the prompt before the generated text (`--no-echo`: false, only the generated text). */
  readonly echo?: boolean;
  /** Number of characters to generate. */
  readonly chars: number;
  /** Softmax temperature; 0 is greedy (argmax) decoding. */
  readonly temperature: number;
  /** Sample among the `topK` most likely characters only; `undefined` = all. */
  readonly topK: number | undefined;
  /** Seed of the sampling stream (ising-core `createRng`). */
  readonly seed: number;
  /** Tiny Shakespeare `input.txt` (the vocabulary); `undefined` = the usual search. */
  readonly dataPath: string | undefined;
  /** Sampler plugin modules, for a model trained with a `--plugin` sampler. */
  readonly plugins: readonly string[];
  /**
   * The user's own `--sampler`, which replaces the model file's (the only way to sample on a
   * remote sampler: a model file may not choose one); `undefined` = the file's when it is local.
   */
  readonly sampler?: string;
  /**
   * The user's own sampler options (endpoint, region, credentials, …), which replace the ones
   * recorded in the model file; `undefined` = the file's, which may only be data.
   */
  readonly samplerOptions?: Readonly<Record<string, unknown>>;
  /** `--sampler-timeout` in ms (0 = none); undefined: the attention package's default. */
  readonly samplerTimeoutMs?: number;
}
