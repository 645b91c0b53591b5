import { describe, expect, it } from 'vitest';
import {
  couplingBandwidth,
  createSamplerRegistry,
  defineSamplerPlugin,
  isIsingError,
  tapSampler,
  transferMatrixSampler,
} from './index.js';
import type { SamplerPlugin } from './index.js';

const capabilities = { exact: false, maxSpins: 4, async: false, deterministic: true };
const make = (name: string): SamplerPlugin => ({
  name,
  version: '0.0.1',
  capabilities,
  create: () => ({ name, capabilities }),
});

describe('createSamplerRegistry', () => {
  it('should register, get, list and require plugins', () => {
    const registry = createSamplerRegistry().register(make('a')).register(make('b'));
    expect(registry.get('a')?.name).toBe('a');
    expect(registry.get('zzz')).toBeUndefined();
    expect(registry.has('b')).toBe(true);
    expect(registry.list().map((p) => p.name)).toEqual(['a', 'b']);
    expect(registry.require('b').create().name).toBe('b');
  });

  it('should throw on a duplicate name', () => {
    const registry = createSamplerRegistry().register(make('a'));
    expect(() => registry.register(make('a'))).toThrowError(
      expect.objectContaining({ code: 'ISING_SAMPLER_DUPLICATE' }),
    );
  });

  it('should give a coded error naming the known samplers for an unknown name', () => {
    const registry = createSamplerRegistry().register(make('a'));
    try {
      registry.require('nope');
      expect.unreachable();
    } catch (e) {
      expect(isIsingError(e, 'ISING_SAMPLER_NOT_FOUND')).toBe(true);
      expect((e as Error).message).toContain('"nope"');
      expect((e as Error).message).toContain('"a"');
    }
  });

  it('should refuse registration after freeze', () => {
    const registry = createSamplerRegistry().freeze();
    expect(() => registry.register(make('a'))).toThrowError(
      expect.objectContaining({ code: 'ISING_REGISTRY_FROZEN' }),
    );
  });

  it('should reject objects that are not plugins', () => {
    expect(() => defineSamplerPlugin({ name: 'x' } as unknown as SamplerPlugin)).toThrowError(
      expect.objectContaining({ code: 'ISING_INVALID_PLUGIN' }),
    );
    expect(() => createSamplerRegistry().register(null as unknown as SamplerPlugin)).toThrowError(
      expect.objectContaining({ code: 'ISING_INVALID_PLUGIN' }),
    );
  });

  it("checks a plugin's options description: an array of { name, type, default?, doc }, no name twice", () => {
    const spec = { name: 'seed', type: 'number', default: '0', doc: 'Seed.' };
    expect(() =>
      createSamplerRegistry().register({ ...make('ok'), options: [spec] }),
    ).not.toThrow();
    for (const options of [
      'seed',
      [{ name: 'seed', type: 'number' }],
      [{ ...spec, default: 0 }],
      [spec, { ...spec, doc: 'again' }],
    ])
      expect(() =>
        createSamplerRegistry().register({ ...make('bad'), options } as unknown as SamplerPlugin),
      ).toThrowError(expect.objectContaining({ code: 'ISING_INVALID_PLUGIN' }));
  });

  it('checks a declared coupling constraint: banded, with a width option and a default width', () => {
    const couplings = { form: 'banded', widthOption: 'band', defaultWidth: 2 } as const;
    const banded = { ...make('banded'), capabilities: { ...capabilities, couplings } };
    expect(() => createSamplerRegistry().register(banded)).not.toThrow();
    for (const bad of [
      { form: 'relative', widthOption: 'band', defaultWidth: 2 },
      { form: 'banded', defaultWidth: 2 },
      { form: 'banded', widthOption: 'band', defaultWidth: -1 },
    ])
      expect(() =>
        createSamplerRegistry().register({
          ...make('bad'),
          capabilities: { ...capabilities, couplings: bad },
        } as unknown as SamplerPlugin),
      ).toThrowError(expect.objectContaining({ code: 'ISING_INVALID_PLUGIN' }));
  });
});

describe('couplingBandwidth', () => {
  it("is the transfer matrix's bandwidth option, else its default 8; undefined for a sampler that takes any J", () => {
    const { capabilities: transfer } = transferMatrixSampler;
    expect(transfer.couplings).toEqual({
      form: 'banded',
      widthOption: 'bandwidth',
      defaultWidth: 8,
    });
    expect(couplingBandwidth(transfer, {})).toBe(8);
    expect(couplingBandwidth(transfer, { bandwidth: 4 })).toBe(4);
    expect(couplingBandwidth(tapSampler.capabilities, { bandwidth: 4 })).toBeUndefined();
    expect(couplingBandwidth(capabilities, {})).toBeUndefined();
  });
});
