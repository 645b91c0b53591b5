// Shared by buildWasm.mjs and the test that keeps the generated modules in step with their .wat;
// the helper itself is the workspace's tools/wasmSource.mjs (attention's engine kernels use it too).
export { compileWat, generatedSource } from '../../../tools/wasmSource.mjs';
