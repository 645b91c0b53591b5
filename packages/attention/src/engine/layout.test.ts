// The typed parameter records (layout.ts): every parameter of every model option is reached by
// exactly one record field at its slot's offset, and specs the table does not match fail loudly.
import { codeOf } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { resolveTransformerConfig } from '../index.js';
import type { TransformerConfig } from '../index.js';
import { gpt } from '../testing/testUtils.js';
import type { ModelParams, ParamSlot } from './engineTypes.js';
import { paramRecords, planParams } from './layout.js';

/** Every offset a record holds, depth first. */
function offsetsOf(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (value === undefined) return [];
  return Object.values(value as object).flatMap(offsetsOf);
}

const recordsOf = ({ embedding, blocks, head }: ModelParams) => ({ embedding, blocks, head });

const configs: TransformerConfig[] = [
  { ...gpt, variant: 'softmax', layers: 2 },
  { ...gpt, variant: 'sigmoid', bias: false },
  { ...gpt, variant: 'boltzmann', couplingForm: 'banded:2', tieEmbeddings: true },
  { ...gpt, variant: 'boltzmann', couplingForm: 'relative', layers: 3 },
  { vocabSize: 5, maxLength: 3, dModel: 4, heads: 1, variant: 'coupling', ffn: false },
  { ...gpt, variant: 'coupling', positions: 'none', bias: false, tieEmbeddings: true },
];

describe('the parameter records', () => {
  it('reach every slot once, each field at its named slot', () => {
    for (const config of configs) {
      const params = planParams(resolveTransformerConfig(config));
      const reached = offsetsOf(recordsOf(params)).sort((a, b) => a - b);
      expect(reached).toEqual(params.slots.map((s) => s.offset));
      const at = (name: string) => params.slot(name)?.offset;
      const last = params.blocks.length - 1;
      const prefix = last === 0 ? '' : `block${last}/`;
      expect(params.blocks[last]?.value.kernel).toBe(at(`${prefix}attention/value/kernel`));
      expect(params.blocks[last]?.ffn?.hidden.bias).toBe(at(`${prefix}ffn/hidden/bias`));
      expect(params.head.kernel).toBe(at('head/kernel'));
      expect(params.embedding.position).toBe(at('embedding/position'));
    }
  });

  it('the optional fields are absent exactly where the model has no such parameter', () => {
    const lean = planParams(resolveTransformerConfig(configs[5]!));
    const block = lean.blocks[0]!;
    expect([block.fields, block.norm1.beta, block.value.bias]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect([lean.head.kernel, lean.embedding.position]).toEqual([undefined, undefined]);
    expect(block.couplings).toBe(lean.slot('attention/couplings')?.offset);
    const softmax = planParams(resolveTransformerConfig(configs[0]!)).blocks[1]!;
    expect(softmax.couplings).toBeUndefined();
    expect(softmax.fields?.key.bias).toBeGreaterThan(0);
  });

  it('fail with ATTENTION_INVALID_CONFIG when the specs list a name the table does not know or lack a required one', () => {
    const { slots } = planParams(resolveTransformerConfig({ ...gpt, layers: 2 }));
    const extra: ParamSlot = { ...slots[0]!, name: 'block1/ffn/hidden/gain' };
    expect(codeOf(() => paramRecords([...slots, extra], 2))).toBe('ATTENTION_INVALID_CONFIG');
    const misspelt = slots.map((s) =>
      s.name === 'ffn/hidden/bias' ? { ...s, name: 'ffn/hiden/bias' } : s,
    );
    expect(codeOf(() => paramRecords(misspelt, 2))).toBe('ATTENTION_INVALID_CONFIG');
    const lacking = slots.filter((s) => s.name !== 'block1/attention/output/kernel');
    expect(codeOf(() => paramRecords(lacking, 2))).toBe('ATTENTION_INVALID_CONFIG');
    expect(() => paramRecords(lacking, 2)).toThrow('"block1/attention/output/kernel"');
    expect(codeOf(() => paramRecords(slots, 1))).toBe('ATTENTION_INVALID_CONFIG'); // block 1 left over
    expect(() => paramRecords(slots, 2)).not.toThrow();
  });
});
