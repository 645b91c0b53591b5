import { couplingParamShape, parseCouplingForm } from './couplingForm.js';
import type { CouplingForm } from './couplingForm.js';
import { usesSampler } from './variants.js';
import type { AttentionVariant } from './variants.js';

/** How one parameter starts. */
export type InitKind = 'normal' | 'zeros' | 'ones' | 'upperNormal';

/** A parameter's name, shape and initializer, in the model's canonical order. */
export interface ParamSpec {
  readonly name: string;
  readonly shape: readonly number[];
  readonly init: InitKind;
  readonly std?: number;
  /** Whether decoupled weight decay applies (matrices of linear maps and embeddings; never J, biases or LayerNorm). */
  readonly decay: boolean;
}

/**
 * The fields of a resolved configuration that fix the parameters (a `ResolvedTransformerConfig`
 * is one). Declared here, not imported, so that the configuration's validation can count
 * parameters without an import cycle.
 */
export interface ParamSpecConfig {
  readonly vocabSize: number;
  readonly outputSize: number;
  readonly maxLength: number;
  readonly dModel: number;
  readonly heads: number;
  readonly layers?: number;
  readonly bias?: boolean;
  readonly tieEmbeddings?: boolean;
  readonly ffn: boolean;
  readonly ffnHidden: number;
  readonly variant: AttentionVariant;
  readonly jInit: string;
  readonly jInitStd: number;
  readonly couplingForm?: CouplingForm;
  readonly positions?: 'learned' | 'none';
}

/** Name of the coupling parameter `J` (`heads × maxLength × maxLength`; masked for `banded:w`). */
export const COUPLINGS = 'attention/couplings';
/** Name of the `relative` coupling parameter (`heads × maxLength`, entry `d` for distance `d`). */
export const RELATIVE_COUPLINGS = 'attention/relativeCouplings';

/**
 * The name of a block parameter in block `layer`: block 0 keeps the one-block model's names
 * (`block/norm1/gamma`, `attention/query/kernel`, `attention/couplings`, `block/norm2/gamma`,
 * `ffn/hidden/kernel`, …); block `ℓ ≥ 1` is `block{ℓ}/` + the name without its `block/`
 * (`block1/norm1/gamma`, `block1/attention/query/kernel`, `block1/attention/couplings`,
 * `block1/norm2/gamma`, `block1/ffn/hidden/kernel`, …).
 */
export function layerName(layer: number, name: string): string {
  return layer === 0 ? name : `block${layer}/${name.replace(/^block\//, '')}`;
}

/**
 * Every parameter of the model in canonical order: embeddings, then each block (layer-major),
 * then the final LayerNorm and the head. `coupling` has no query/key maps (its fields are
 * zero); `softmax` and `sigmoid` have no `J`. With `layers: 1` and the defaults the list is
 * exactly the one-block model's (names, shapes, order and initializers), so old checkpoints load.
 * `bias: false` drops every linear bias and LayerNorm `beta`; `tieEmbeddings` drops `head/kernel`.
 */
export function paramSpecs(config: ParamSpecConfig): ParamSpec[] {
  const { vocabSize, maxLength, dModel: d, heads, ffnHidden, outputSize, variant } = config;
  const bias = config.bias ?? true;
  const dense = (name: string, inDim: number, outDim: number, kernel = true): ParamSpec[] => [
    ...(kernel
      ? [{ name: `${name}/kernel`, shape: [inDim, outDim], init: 'normal' as const, decay: true }]
      : []),
    ...(bias
      ? [{ name: `${name}/bias`, shape: [outDim], init: 'zeros' as const, decay: false }]
      : []),
  ];
  const norm = (name: string): ParamSpec[] => [
    { name: `${name}/gamma`, shape: [d], init: 'ones', decay: false },
    ...(bias ? [{ name: `${name}/beta`, shape: [d], init: 'zeros' as const, decay: false }] : []),
  ];
  const specs: ParamSpec[] = [
    { name: 'embedding/token', shape: [vocabSize, d], init: 'normal', decay: true },
    ...(config.positions === 'none'
      ? []
      : [
          {
            name: 'embedding/position',
            shape: [maxLength, d],
            init: 'normal' as const,
            decay: true,
          },
        ]),
  ];
  for (let layer = 0; layer < (config.layers ?? 1); layer++) {
    const at = (name: string): string => layerName(layer, name);
    specs.push(...norm(at('block/norm1')));
    if (variant !== 'coupling')
      specs.push(...dense(at('attention/query'), d, d), ...dense(at('attention/key'), d, d));
    specs.push(...dense(at('attention/value'), d, d), ...dense(at('attention/output'), d, d));
    if (usesSampler(variant)) {
      const form = parseCouplingForm(config.couplingForm ?? 'full', maxLength);
      const normal = form.kind === 'relative' ? 'normal' : 'upperNormal';
      specs.push({
        name: at(form.kind === 'relative' ? RELATIVE_COUPLINGS : COUPLINGS),
        shape: couplingParamShape(form, heads, maxLength),
        init: config.jInit === 'normal' ? normal : 'zeros',
        std: config.jInitStd,
        decay: false,
      });
    }
    if (config.ffn)
      specs.push(
        ...norm(at('block/norm2')),
        ...dense(at('ffn/hidden'), d, ffnHidden),
        ...dense(at('ffn/output'), ffnHidden, d),
      );
  }
  specs.push(
    ...norm('final/norm'),
    ...dense('head', d, outputSize, !(config.tieEmbeddings ?? false)),
  );
  return specs;
}
