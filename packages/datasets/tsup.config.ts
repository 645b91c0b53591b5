import { defineConfig } from 'tsup';
import { tsupPreset } from '../../tools/tsup.base.js';

export default defineConfig(tsupPreset({ index: 'src/index.ts' }));
