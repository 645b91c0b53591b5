// The writer against the reader (round trips with fast-check) and against an independent reader:
// `parseSafetensorsMetadata` of @huggingface/hub, Hugging Face's JavaScript safetensors header
// parser, served our bytes by an in-memory fetch (no network: nothing leaves the process).
import { parseSafetensorsMetadata } from '@huggingface/hub';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSafetensors } from './safetensorsReader.js';
import { encodeSafetensors } from './safetensorsWriter.js';
import type { SafetensorsTensorInput } from './safetensorsWriter.js';

/** A `fetch` that serves `bytes` as every `*.safetensors` path (Range requests included), else 404. */
function memoryFetch(bytes: Uint8Array): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    if (!String(input).endsWith('.safetensors')) return new Response('', { status: 404 });
    const range = /bytes=(\d+)-(\d*)/.exec(new Headers(init?.headers).get('Range') ?? '');
    const from = range ? Number(range[1]) : 0;
    const to = Math.min(range?.[2] ? Number(range[2]) + 1 : bytes.length, bytes.length);
    return new Response(bytes.slice(from, to), {
      status: range ? 206 : 200,
      headers: { 'Content-Range': `bytes ${from}-${to - 1}/${bytes.length}`, ETag: '"memory"' },
    });
  }) as typeof fetch;
}

const referenceHeader = (bytes: Uint8Array) =>
  parseSafetensorsMetadata({
    repo: 'local/model',
    path: 'model.safetensors',
    computeParametersCount: true,
    fetch: memoryFetch(bytes),
    hubUrl: 'http://127.0.0.1:9',
  });

const tensorArb: fc.Arbitrary<SafetensorsTensorInput> = fc
  .record({
    dtype: fc.constantFrom('F32' as const, 'F64' as const),
    shape: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }),
  })
  .chain(({ dtype, shape }) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const value = dtype === 'F32' ? fc.float({ noNaN: true }) : fc.double({ noNaN: true });
    return fc
      .array(value, { minLength: size, maxLength: size })
      .map((data) => ({ dtype, shape, data }));
  });

const filesArb = fc.record({
  tensors: fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s !== '__metadata__'),
    tensorArb,
    { maxKeys: 6 },
  ),
  metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), {
    maxKeys: 4,
  }),
});

describe('encodeSafetensors → decodeSafetensors', () => {
  it('gives back every tensor bit for bit (−0, ±Infinity, subnormals) and the metadata', () => {
    fc.assert(
      fc.property(filesArb, ({ tensors, metadata }) => {
        const bytes = encodeSafetensors(tensors, metadata);
        const got = decodeSafetensors(bytes);
        expect(got.metadata).toEqual(Object.keys(metadata).length > 0 ? metadata : {});
        expect([...got.tensors.keys()].sort()).toEqual(Object.keys(tensors).sort());
        for (const [name, t] of Object.entries(tensors)) {
          const back = got.tensors.get(name)!;
          expect(back.dtype).toBe(t.dtype);
          expect(back.shape).toEqual(t.shape);
          // Object.is tells −0 from 0, which toEqual on numbers would not.
          Array.from(back.data).forEach((v, i) => expect(Object.is(v, t.data[i])).toBe(true));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('pads the header with spaces to a multiple of 8 and aligns every tensor to its dtype', () => {
    fc.assert(
      fc.property(filesArb, ({ tensors, metadata }) => {
        const bytes = encodeSafetensors(tensors, metadata);
        const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
        expect(n % 8).toBe(0);
        const text = new TextDecoder().decode(bytes.subarray(8, 8 + n));
        expect(text.trimEnd().endsWith('}')).toBe(true);
        expect(text.slice(text.trimEnd().length)).toMatch(/^ *$/);
        for (const t of decodeSafetensors(bytes).tensors.values())
          expect(t.data.byteOffset % t.data.BYTES_PER_ELEMENT).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses what it cannot write, with ATTENTION_INVALID_ARGUMENT', () => {
    const bad: [Record<string, SafetensorsTensorInput>, Record<string, string>][] = [
      [{ w: { dtype: 'F32', shape: [2], data: [1] } }, {}],
      [{ w: { dtype: 'F16' as 'F32', shape: [1], data: [1] } }, {}],
      [{ __metadata__: { dtype: 'F32', shape: [1], data: [1] } }, {}],
      [{ w: { dtype: 'F32', shape: [-1], data: [] } }, {}],
      [{}, { step: 3 as unknown as string }],
    ];
    for (const [tensors, metadata] of bad)
      expect(() => encodeSafetensors(tensors, metadata)).toThrow(
        expect.objectContaining({ code: 'ATTENTION_INVALID_ARGUMENT' }),
      );
  });
});

describe("our files through Hugging Face's reader (@huggingface/hub parseSafetensorsMetadata)", () => {
  it('reads the same header, metadata and parameter counts', async () => {
    await fc.assert(
      fc.asyncProperty(filesArb, async ({ tensors, metadata }) => {
        const bytes = encodeSafetensors(tensors, metadata);
        const ref = await referenceHeader(bytes);
        if (ref.sharded) throw new Error('a single file was read as sharded');
        const ours = decodeSafetensors(bytes);
        const { __metadata__, ...entries } = ref.header;
        expect(__metadata__ ?? {}).toEqual(ours.metadata);
        expect(Object.keys(entries).sort()).toEqual([...ours.tensors.keys()].sort());
        for (const [name, t] of ours.tensors) {
          expect(entries[name]!.dtype).toBe(t.dtype);
          expect(entries[name]!.shape).toEqual(t.shape);
        }
        // The reference counts a rank-0 tensor (a scalar) as 0 parameters: left out here.
        const count = (dtype: string) =>
          Object.values(tensors)
            .filter((t) => t.dtype === dtype && t.shape.length > 0)
            .reduce((sum, t) => sum + t.data.length, 0);
        for (const dtype of ['F32', 'F64'] as const)
          expect(ref.parameterCount[dtype] ?? 0).toBe(count(dtype));
      }),
      { numRuns: 30 },
    );
  });

  it('and both read a tensor named __proto__ as a tensor (fast-check found it)', async () => {
    const tensors = Object.defineProperty({}, '__proto__', {
      value: { dtype: 'F32', shape: [], data: [0] },
      enumerable: true,
    }) as Record<string, SafetensorsTensorInput>;
    const bytes = encodeSafetensors(tensors, {});
    expect([...decodeSafetensors(bytes).tensors.keys()]).toEqual(['__proto__']);
    const ref = await referenceHeader(bytes);
    if (ref.sharded) throw new Error('a single file was read as sharded');
    expect(Object.keys(ref.header)).toEqual(['__proto__']);
  });

  it('and both refuse a header that is not JSON', async () => {
    const text = new TextEncoder().encode('{"w":{"dtype":"F32",');
    const bytes = new Uint8Array(8 + text.length);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(text.length), true);
    bytes.set(text, 8);
    await expect(referenceHeader(bytes)).rejects.toThrow(/not valid JSON/);
    expect(() => decodeSafetensors(bytes)).toThrow(
      expect.objectContaining({ code: 'ATTENTION_SAFETENSORS_HEADER' }),
    );
  });
});
