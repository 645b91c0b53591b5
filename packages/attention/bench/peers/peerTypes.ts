// The leaf types of scripts/benchPeers.ts's rounds: the peers and what every round shares, read by
// peerRound.ts (the paper rows) and babyRows.ts (GPT baby's) alike.
import type { BlasVerdict } from './peerConfigs.js';
import type { PeerBackend } from './peerBackends.js';
import type { PeerConfigs } from './tunePeers.js';

/** The PyTorch peers: the Python that imports torch, its BLAS, and each peer's configuration. */
export interface Peers {
  readonly python: string;
  readonly blas: BlasVerdict;
  readonly configs: PeerConfigs;
}

/** What every round shares: the run's options and the peers (if torch imports). */
export interface RoundOptions {
  readonly steps: number;
  readonly cores: number;
  readonly peers: Peers | undefined;
  /** nanoGPT's prepared work folder and its iterations, for the baby rows (skipped without it). */
  readonly nanoGptWork: string | undefined;
  readonly nanoIters: number;
  /** Iterations of the whole-process row (0: none) and the engine's tuned threads for it. */
  readonly wholeIters: number;
  readonly engineThreads: Partial<Record<PeerBackend, number>>;
  /** The backends every engine row runs on, and the native ISA (for the whole-process rows). */
  readonly backends: readonly PeerBackend[];
  readonly nativeIsa: string | undefined;
  /** Tiny Shakespeare's input.txt, for nanoGPT's data. */
  readonly input: string;
}
