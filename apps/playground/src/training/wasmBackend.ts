import { initBackend } from '@boltzmann/attention';
import * as tf from '@tensorflow/tfjs';
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import simdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import threadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';

/**
 * Starts TensorFlow.js's wasm backend in the browser: the site serves the backend's .wasm files
 * itself (Vite emits them as assets), so nothing is fetched from a CDN. tfjs's own thread pool is
 * off: one training worker is one thread, like ising-core's samplers here (`threads: 1`).
 * Falls back to the cpu backend (initBackend's rule) when wasm cannot start.
 *
 * @param log where to report the chosen backend.
 * @returns 'wasm' or 'cpu'.
 */
export async function initBrowserBackend(log: (message: string) => void): Promise<string> {
  // tfjs wants all three binaries in the map; the threaded one is not fetched while its threads are off.
  // Imported on demand, as initBackend imports it: a static import here would pin the backend into
  // this chunk and leave initBackend's dynamic import without effect (Rolldown warns of exactly that).
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  setWasmPaths({
    'tfjs-backend-wasm.wasm': wasmUrl,
    'tfjs-backend-wasm-simd.wasm': simdUrl,
    'tfjs-backend-wasm-threaded-simd.wasm': threadedSimdUrl,
  });
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  return initBackend('wasm', { log });
}
