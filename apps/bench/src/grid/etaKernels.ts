// The kernels a grid's local runs will train on, for the ETA (grid/eta.ts costs the engine on its
// WebAssembly fit unless told the native backend runs, which is 2–5× faster): what
// `engineBackendInfo` resolves the run's backend choice to on this machine.
import { engineBackendInfo } from '@boltzmann/attention';
import type { EtaEngine } from './eta.js';
import { DEFAULT_ENGINE } from '../types.js';
import type { EngineChoice } from '../types.js';

/**
 * `chosen` (default: {@link DEFAULT_ENGINE}) with the kernels its runs get here. The tfjs path has none; a backend that cannot run
 * here (an explicit `native` without the addon) is left to the run to report, and the ETA keeps
 * the WebAssembly fit.
 */
export function etaEngineHere(chosen: EngineChoice | undefined): EtaEngine {
  const engine = chosen ?? DEFAULT_ENGINE;
  if (engine.name === 'tfjs') return engine;
  try {
    const { name, isa } = engineBackendInfo(engine.backend ?? 'auto');
    return { ...engine, kernels: { name, isa } };
  } catch {
    return engine;
  }
}
