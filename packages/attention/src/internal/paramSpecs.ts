import { couplingParamShape, parseCouplingForm } from '../couplingForm.js';
import type { ResolvedTransformerConfig } from '../transformerConfig.js';
import { usesSampler } from '../variants.js';
import type { ParamSpec } from './init.js';

/** Name of the coupling parameter `J` (`heads × maxLength × maxLength`; masked for `banded:w`). */
export const COUPLINGS = 'attention/couplings';
/** Name of the `relative` coupling parameter (`heads × maxLength`, entry `d` for distance `d`). */
export const RELATIVE_COUPLINGS = 'attention/relativeCouplings';

/**
 * Every parameter of the model in canonical order. `coupling` has no query/key maps (its
 * fields are zero); `softmax` and `sigmoid` have no `J`.
 */
export function paramSpecs(config: ResolvedTransformerConfig): ParamSpec[] {
  const { vocabSize, maxLength, dModel: d, heads, ffnHidden, outputSize, variant } = config;
  const dense = (name: string, inDim: number, outDim: number): ParamSpec[] => [
    { name: `${name}/kernel`, shape: [inDim, outDim], init: 'normal', decay: true },
    { name: `${name}/bias`, shape: [outDim], init: 'zeros', decay: false },
  ];
  const norm = (name: string): ParamSpec[] => [
    { name: `${name}/gamma`, shape: [d], init: 'ones', decay: false },
    { name: `${name}/beta`, shape: [d], init: 'zeros', decay: false },
  ];
  const specs: ParamSpec[] = [
    { name: 'embedding/token', shape: [vocabSize, d], init: 'normal', decay: true },
    { name: 'embedding/position', shape: [maxLength, d], init: 'normal', decay: true },
    ...norm('block/norm1'),
  ];
  if (variant !== 'coupling') specs.push(...dense('attention/query', d, d), ...dense('attention/key', d, d));
  specs.push(...dense('attention/value', d, d), ...dense('attention/output', d, d));
  if (usesSampler(variant)) {
    const form = parseCouplingForm(config.couplingForm ?? 'full', maxLength);
    const normal = form.kind === 'relative' ? 'normal' : 'upperNormal';
    specs.push({
      name: form.kind === 'relative' ? RELATIVE_COUPLINGS : COUPLINGS,
      shape: couplingParamShape(form, heads, maxLength),
      init: config.jInit === 'normal' ? normal : 'zeros',
      std: config.jInitStd,
      decay: false,
    });
  }
  if (config.ffn) specs.push(...norm('block/norm2'), ...dense('ffn/hidden', d, ffnHidden), ...dense('ffn/output', ffnHidden, d));
  specs.push(...norm('final/norm'), ...dense('head', d, outputSize));
  return specs;
}
