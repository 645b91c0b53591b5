/**
 * The backend the engine's tests (src/engine/**) run on: BOLTZMANN_ENGINE_BACKEND (`auto`,
 * `native` or `wasm`; default `auto`). The test command runs them twice: the `attention`
 * project as set (auto), and the `attention-engine-wasm` project on wasm (vitest.config.ts).
 * With BOLTZMANN_REQUIRE_NATIVE=1 (CI) `auto` means `native`: a missing addon fails the tests
 * instead of quietly running them on wasm.
 */
import { createArena } from '../engine/arena.js';
import { createEngineKernels } from '../engine/engineKernels.js';
import {
  type EngineBackendRequest,
  type KernelBackend,
  resolveEngineBackend,
} from '../engine/native/engineBackend.js';

/** The backend asked for by the environment (see the file's header). */
export function testEngineBackend(): EngineBackendRequest {
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process
    ?.env;
  const asked = env?.BOLTZMANN_ENGINE_BACKEND ?? 'auto';
  if (asked !== 'auto' && asked !== 'native' && asked !== 'wasm')
    throw new Error(`BOLTZMANN_ENGINE_BACKEND must be auto, native or wasm, got ${asked}`);
  return asked === 'auto' && env?.BOLTZMANN_REQUIRE_NATIVE === '1' ? 'native' : asked;
}

let resolved: KernelBackend | undefined;

/**
 * The backend a kernel wrapper's test hands to `create<Op>Kernels`: what `createEngineKernels`
 * picks for {@link testEngineBackend} (so `auto` is wasm while the addon lacks a kernel).
 */
export function testKernelBackend(): KernelBackend {
  if (resolved !== undefined) return resolved;
  const request = testEngineBackend();
  const { name, isa } = createEngineKernels(createArena(1024), { backend: request }).backend;
  resolved = name === 'native' ? resolveEngineBackend('native', isa) : resolveEngineBackend('wasm');
  return resolved;
}

/** `native avx512` or `wasm f32x4`: for test titles. */
export function testBackendName(): string {
  const { name, isa } = testKernelBackend().info;
  return `${name} ${isa}`;
}
