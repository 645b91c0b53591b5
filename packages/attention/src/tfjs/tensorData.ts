import * as tf from '@tensorflow/tfjs';

/**
 * The data of the tensor `build` returns: built inside a tidy (its intermediates freed), read
 * after it, then disposed. Reading inside the tidy and returning the typed array costs a walk
 * over every element: tfjs looks through a tidy's result for tensors to keep. That walk was a
 * quarter of a bracket training run's CPU at T = 64 (evaluation: 262k log-probabilities per chunk).
 */
export function readOutsideTidy(build: () => tf.Tensor): Float32Array {
  const tensor = tf.tidy(build);
  try {
    return tensor.dataSync() as Float32Array;
  } finally {
    tensor.dispose();
  }
}

/**
 * The data of the tensor `build` returns, read asynchronously (built inside a tidy, disposed
 * after): the read every backend supports, webgpu's included.
 */
export async function readAsync(build: () => tf.Tensor): Promise<Float32Array> {
  const tensor = tf.tidy(build);
  try {
    return (await tensor.data()) as Float32Array;
  } finally {
    tensor.dispose();
  }
}

/** The GPU backends tfjs ships: their tensors live on the device, and a read is a round trip. */
const DEVICE_BACKENDS: ReadonlySet<string> = new Set(['webgl', 'webgpu']);

/**
 * True unless the active backend is a GPU one (webgl, webgpu): cpu, wasm, tfjs-node's tensorflow
 * and any other registered backend keep the paths that read tensor data directly.
 */
export function onHostMemory(): boolean {
  return !DEVICE_BACKENDS.has(tf.getBackend());
}

/**
 * False on webgpu: WebGPU has no synchronous read, and tfjs-backend-webgpu's `dataSync` goes
 * through a canvas that some adapters cannot draw (it returns zeros and loses the device on
 * Chromium's SwiftShader). There the causal op runs on estimates `prepare` made ahead.
 */
export function readsSynchronously(): boolean {
  return tf.getBackend() !== 'webgpu';
}

/** The tensors' data: read synchronously where the backend can, else awaited (webgpu). */
export async function readEach(tensors: readonly tf.Tensor[]): Promise<Float32Array[]> {
  if (readsSynchronously()) return tensors.map((t) => t.dataSync() as Float32Array);
  return Promise.all(tensors.map(async (t) => (await t.data()) as Float32Array));
}
