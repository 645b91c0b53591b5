/**
 * The kit of the native kernels' tests (src/engine/kernels/<op>/<op>Native.test.ts): each test
 * runs a WAT export and the native kernel of the same name on two arenas holding the same
 * inputs, with the same arguments, for every ISA this CPU runs, and compares what they wrote.
 * Without the addon a test fails with the reason when BOLTZMANN_REQUIRE_NATIVE=1 (CI sets it)
 * and is skipped with the reason otherwise.
 */
import { expect, it } from 'vitest';
import { createArena, instantiateEngineModule } from '../engine/arena.js';
import type { EngineMemory } from '../engine/arena.js';
import { loadNativeAddon } from '../engine/native/nativeAddon.js';
import type { NativeKernels } from '../engine/native/nativeAddon.js';

/** A generated module's two variants (`wasmBase64` of its plain and shared files). */
export interface WatVariants {
  readonly plain: string;
  readonly shared: string;
}

type Exports = Readonly<Record<string, (...args: number[]) => number | undefined>>;

/** A WAT module and the native kernels of one ISA, each on an arena of its own. */
export interface KernelPair {
  readonly isa: string;
  /** Both arenas' floats (views made after any growth). */
  views(): { wat: Float32Array; native: Float32Array };
  /** Writes `values` at float `at` of both arenas. */
  set(at: number, values: ArrayLike<number>): void;
  /** Writes int32 `values` at float `at` of both arenas. */
  setInts(at: number, values: ArrayLike<number>): void;
  /** Calls export `name` on both with the same arguments; returns [wat, native] results. */
  call(name: string, ...args: number[]): [number | undefined, number | undefined];
}

function requireNative(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.BOLTZMANN_REQUIRE_NATIVE === '1';
}

/**
 * The one test that stands for `title` where the addon did not load: it fails with the reason
 * under BOLTZMANN_REQUIRE_NATIVE=1 (CI), and is reported skipped, with the reason, elsewhere.
 */
export function itWithoutAddon(title: string, reason: string): void {
  it.skipIf(!requireNative())(`${title} (no native addon: ${reason})`, () => {
    expect.fail(`the native addon is required (BOLTZMANN_REQUIRE_NATIVE=1): ${reason}`);
  });
}

/**
 * `it(title [isa, memory])` for every ISA of the addon and both kinds of arena (plain and
 * shared), with a fresh {@link KernelPair} of `floats` floats; or one failing or skipped test
 * with the reason the addon did not load.
 */
export function itEveryIsa(
  title: string,
  variants: WatVariants,
  floats: number,
  body: (pair: KernelPair) => void,
): void {
  const load = loadNativeAddon();
  if (load.addon === undefined) {
    itWithoutAddon(title, load.reason);
    return;
  }
  const addon = load.addon;
  for (const isa of addon.isas())
    for (const shared of [false, true])
      it(`${title} [${isa}, ${shared ? 'shared' : 'plain'} arena]`, () => {
        const wat = createArena(floats, { shared });
        const native = createArena(floats, { shared });
        const exports = instantiateEngineModule(variants, wat, 'tested') as Exports;
        body(kernelPair(isa, wat, exports, native, addon.bind(new Uint8Array(native.buffer), isa)));
      });
}

function kernelPair(
  isa: string,
  watMemory: EngineMemory,
  wat: Exports,
  nativeMemory: EngineMemory,
  native: NativeKernels,
): KernelPair {
  const views = () => ({
    wat: new Float32Array(watMemory.buffer),
    native: new Float32Array(nativeMemory.buffer),
  });
  return {
    isa,
    views,
    set(at, values) {
      for (const view of Object.values(views())) view.set(values, at);
    },
    setInts(at, values) {
      for (const memory of [watMemory, nativeMemory]) new Int32Array(memory.buffer).set(values, at);
    },
    call(name, ...args) {
      const [w, n] = [wat[name], native[name]];
      if (w === undefined || n === undefined) throw new Error(`no export or kernel named ${name}`);
      return [w(...args), n(...args)];
    },
  };
}

/** `count` seeded values in [−scale, scale) (a linear congruential stream). */
export function seededFloats(count: number, seed: number, scale = 1): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = scale * (s / 2 ** 31 - 1);
  }
  return out;
}

/**
 * Expects `size` floats at `at` to agree between the arenas: max |native − wat| ≤
 * tolerance · max(floor, max |wat|) (the region's scale, since the two sum in different orders).
 */
export function expectClose(
  pair: KernelPair,
  what: string,
  at: number,
  size: number,
  tolerance: number,
  floor = 1e-30,
): void {
  const { wat, native } = pair.views();
  let diff = 0;
  let scale = floor;
  for (let i = at; i < at + size; i++) {
    diff = Math.max(diff, Math.abs(native[i]! - wat[i]!));
    scale = Math.max(scale, Math.abs(wat[i]!));
  }
  expect(
    diff / scale,
    `${what}: max |native − wat| ${diff} over scale ${scale}`,
  ).toBeLessThanOrEqual(tolerance);
}
