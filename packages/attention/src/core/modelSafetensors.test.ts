// Model files as safetensors: size, round trips with identical outputs, the old JSON form still
// loading, and the refusals of a file that is not a model.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTransformer,
  decodeModelFile,
  decodeSafetensors,
  encodeModelFile,
  encodeSafetensors,
  initBackend,
  loadTransformer,
  parseModelFile,
  readTransformer,
  saveTransformer,
} from '../index.js';
import type { Transformer } from '../index.js';
import { randomTokens, take } from '../testing/testUtils.js';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'legacy-one-layer.json');

/** `bench shakespeare`'s small model at T = 4: 58,769 parameters (counted in the first test). */
const SHAKESPEARE_T4 = {
  vocabSize: 65,
  maxLength: 4,
  dModel: 64,
  heads: 1,
  ffn: true,
  variant: 'boltzmann',
  seed: 1,
} as const;

const logitsOf = async (model: Transformer, inputs: Int32Array) =>
  take(await model.forward(inputs, 2));

describe('model files as safetensors', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('a 58,769-parameter model is 4 bytes a parameter plus its header, and loads back identical', async () => {
    const model = createTransformer(SHAKESPEARE_T4);
    const params = model.parameters.reduce((a, p) => a + p.variable.size, 0);
    expect(params).toBe(58_769);
    const json = model.toJSON();
    const bytes = encodeModelFile(json);
    const header = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect(bytes.length).toBe(8 + header + 4 * params);
    const jsonBytes = new TextEncoder().encode(JSON.stringify(json)).length;
    // The figures the README and the changeset quote come from this line.
    console.log(
      `58,769 parameters: safetensors ${bytes.length} bytes (header ${header}), JSON ${jsonBytes} bytes`,
    );
    const { model: back, metadata } = decodeModelFile(bytes);
    expect(metadata).toEqual({});
    expect(back).toEqual(json);
    const copy = loadTransformer(back);
    const inputs = randomTokens(2 * 4, 65, 5);
    expect(await logitsOf(copy, inputs)).toEqual(await logitsOf(model, inputs));
    for (const m of [model, copy]) m.dispose();
  });

  it('keeps the config (sampler and options included) as JSON in __metadata__, and the caller’s keys', () => {
    const model = createTransformer({
      ...SHAKESPEARE_T4,
      dModel: 8,
      samplerOptions: { maxSpins: 20 },
    });
    const bytes = encodeModelFile(model.toJSON(), { run: 'shakespeare-0' });
    const { metadata } = decodeSafetensors(bytes);
    expect(metadata.format).toBe('boltzmann-attention/transformer');
    expect(metadata.version).toBe('1');
    expect(JSON.parse(metadata.config!)).toEqual(model.config);
    expect(JSON.parse(metadata.config!)).toMatchObject({
      sampler: 'exact',
      samplerOptions: { maxSpins: 20 },
    });
    expect(decodeModelFile(bytes).metadata).toEqual({ run: 'shakespeare-0' });
    expect(() => encodeModelFile(model.toJSON(), { config: '{}' })).toThrow(
      expect.objectContaining({ code: 'ATTENTION_INVALID_ARGUMENT' }),
    );
    model.dispose();
  });

  it('saveTransformer writes safetensors (JSON for a .json path); readTransformer reads both and the old JSON files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'attention-safetensors-'));
    const model = createTransformer({ ...SHAKESPEARE_T4, dModel: 16 });
    const inputs = randomTokens(2 * 4, 65, 9);
    const before = await logitsOf(model, inputs);
    await saveTransformer(model, join(dir, 'm.safetensors'));
    await saveTransformer(model, join(dir, 'm.json'));
    await saveTransformer(model, join(dir, 'forced.json'), { format: 'safetensors' });
    expect((await readFile(join(dir, 'm.safetensors')))[8]).toBe(0x7b);
    expect((await readFile(join(dir, 'm.json'), 'utf8')).startsWith('{"format"')).toBe(true);
    for (const name of ['m.safetensors', 'm.json', 'forced.json']) {
      const again = await readTransformer(join(dir, name));
      expect(await logitsOf(again, inputs), name).toEqual(before);
      again.dispose();
    }
    const legacy = (JSON.parse(await readFile(fixture, 'utf8')) as { model: unknown }).model;
    await writeFile(join(dir, 'legacy.json'), JSON.stringify(legacy));
    const old = await readTransformer(join(dir, 'legacy.json'));
    expect(old.toJSON()).toEqual(parseModelFile(encodeModelFile(old.toJSON())).model);
    for (const m of [model, old]) m.dispose();
  });

  it('refuses a safetensors file that is not a model, a damaged one, and bad bytes, with codes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'attention-safetensors-bad-'));
    const other = encodeSafetensors({ w: { dtype: 'F32', shape: [1], data: [1] } }, { a: 'b' });
    expect(() => decodeModelFile(other)).toThrow(/not a model file/);
    const model = createTransformer({ ...SHAKESPEARE_T4, dModel: 8 });
    const json = model.toJSON();
    model.dispose();
    const bytes = encodeModelFile(json);
    await writeFile(join(dir, 'cut.safetensors'), bytes.subarray(0, bytes.length - 4));
    await expect(readTransformer(join(dir, 'cut.safetensors'))).rejects.toMatchObject({
      code: 'ATTENTION_SAFETENSORS_OFFSETS',
    });
    const misnamed = encodeModelFile({
      ...json,
      weights: { ...json.weights, extra: { shape: [1], data: [0] } },
    });
    await writeFile(join(dir, 'extra.safetensors'), misnamed);
    await expect(readTransformer(join(dir, 'extra.safetensors'))).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_CHECKPOINT',
      message: expect.stringContaining('the config does not use'),
    });
    await writeFile(join(dir, 'text.bin'), 'neither');
    await expect(readTransformer(join(dir, 'text.bin'))).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_CHECKPOINT',
      message: expect.stringContaining('text.bin'),
    });
  });

  it("reads a weight named __proto__ as a key, never as the weights object's prototype", () => {
    const bytes = encodeSafetensors(
      Object.defineProperty({}, '__proto__', {
        value: { dtype: 'F32', shape: [1], data: [1] },
        enumerable: true,
      }) as never,
      { format: 'boltzmann-attention/transformer', version: '1', config: '{}' },
    );
    const { weights } = decodeModelFile(bytes).model as unknown as { weights: object };
    expect(Object.getPrototypeOf(weights)).toBe(Object.prototype);
    expect(Object.keys(weights)).toEqual(['__proto__']);
  });
});
