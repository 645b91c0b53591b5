import { defineConfig } from 'tsup';
import { tsupPreset } from '../../tools/tsup.base.js';

export default defineConfig(
  tsupPreset(
    { index: 'src/index.ts', engineWorker: 'src/engine/parallel/engineWorker.ts' },
    // The engine's worker is found beside dist/index.js through import.meta.url (shimmed in CJS).
    { shims: true, splitting: true },
  ),
);
