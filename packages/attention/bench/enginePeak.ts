// The engine's backend in the speed scripts (scripts/benchEngine.ts, benchScaling.ts,
// benchPeers.ts, issue 40): the `--backend` flag, and the one-core peak of the backend a trainer
// runs on, the roofline of its kernel split: the native ISA's FMA peak (the addon's fma_peak,
// independent FMA chains in registers, as scripts/benchNativeGemm.ts times it) or the wasm
// f32x4 peak (bench/wasmPeak.ts).
import type { EngineBackendInfo, EngineBackendRequest } from '../src/index.js';
import { loadNativeAddon } from '../src/engine/native/nativeAddon.js';
import { scriptArg } from './scriptArgs.js';
import { peakGflops, time } from './wasmPeak.js';

const REQUESTS: readonly EngineBackendRequest[] = ['auto', 'native', 'wasm'];

/** The `--backend` flag (default `auto`); throws on any other value. */
export function backendArg(): EngineBackendRequest {
  const asked = scriptArg('backend', 'auto') as EngineBackendRequest;
  if (!REQUESTS.includes(asked))
    throw new Error(`--backend must be auto, native or wasm, got ${asked}`);
  return asked;
}

/** A backend's one-core peak: `native avx512 FMA` or `wasm f32x4`, in GFLOP/s. */
export interface EnginePeak {
  readonly name: string;
  readonly gflops: number;
}

/** GFLOP/s of the native ISA's FMA peak now (10⁵ turns a call), or undefined without the kernel. */
function nativePeak(isa: string): number | undefined {
  const { addon } = loadNativeAddon();
  const fmaPeak = addon?.bind(new Float32Array(1024), isa).fma_peak;
  if (fmaPeak === undefined) return undefined;
  const flopsPerTurn = fmaPeak(0) ?? 0;
  return (1e5 * flopsPerTurn) / time(() => fmaPeak(1e5)) / 1e9;
}

/** The one-core peak of the backend `info` names (the wasm peak where the native one cannot be had). */
export async function enginePeak(info: EngineBackendInfo): Promise<EnginePeak> {
  const native = info.name === 'native' ? nativePeak(info.isa) : undefined;
  if (native !== undefined && native > 0) return { name: `native ${info.isa} FMA`, gflops: native };
  return { name: 'wasm f32x4', gflops: await peakGflops() };
}
