import { createTransformer, initBackend } from '@boltzmann/attention';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeModelFile, modelFileOf } from './modelFiles.js';

describe('model files in the playground', () => {
  beforeAll(async () => {
    await initBackend('cpu', { log: () => undefined });
  });

  it('saves a model as safetensors and opens it, its JSON form and a bench --save-models JSON alike', () => {
    const model = createTransformer({
      vocabSize: 6,
      maxLength: 4,
      dModel: 8,
      variant: 'boltzmann',
    });
    const json = model.toJSON();
    const bytes = modelFileOf(model);
    model.dispose();
    expect(Array.from(bytes.subarray(8, 9))).toEqual([0x7b]);
    const said = describeModelFile('m.safetensors', bytes);
    expect(said).toMatch(
      /^m\.safetensors: safetensors, [\d,]+ parameters; boltzmann, T = 4, d_model 8, 1 head, 1 layer, sampler exact$/,
    );
    const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    expect(describeModelFile('m.json', text(json))).toBe(
      said.replace('m.safetensors: safetensors', 'm.json: JSON'),
    );
    expect(describeModelFile('run.json', text({ id: 'r', config: {}, model: json }))).toBe(
      said.replace('m.safetensors: safetensors', 'run.json: JSON'),
    );
  });

  it('refuses a damaged file and one that is not a model, with the package codes', () => {
    const model = createTransformer({ vocabSize: 6, maxLength: 4, dModel: 8, variant: 'softmax' });
    const bytes = modelFileOf(model);
    model.dispose();
    expect(() => describeModelFile('cut', bytes.subarray(0, -4))).toThrow(
      expect.objectContaining({ code: 'ATTENTION_SAFETENSORS_OFFSETS' }),
    );
    expect(() => describeModelFile('x', new TextEncoder().encode('{"hello":1}'))).toThrow(
      expect.objectContaining({ code: 'ATTENTION_INVALID_CHECKPOINT' }),
    );
  });
});
