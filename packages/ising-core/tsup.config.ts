import { defineConfig } from 'tsup';
import { tsupPreset } from '../../tools/tsup.base.js';

export default defineConfig(
  tsupPreset(
    {
      index: 'src/index.ts',
      internal: 'src/internalApi.ts',
      testing: 'src/testing/index.ts',
      testingVitest: 'src/testing/vitest.ts',
      batchWorker: 'src/internal/pool/batchWorker.ts',
    },
    { external: ['vitest'], shims: true, splitting: true },
  ),
);
