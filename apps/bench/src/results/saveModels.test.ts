import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initBackend, loadTransformer } from '@boltzmann/attention';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, modelPath, parseBenchArgs, runId } from '../index.js';
import { tinyRunFlags } from '../testing/fixtures.js';
import { decodeSavedModel } from './savedModelFile.js';

describe('--save-models', () => {
  it("writes each finished run's trained model, which loads back", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-models-'));
    const args = [
      'shakespeare',
      '--lengths',
      '4',
      '--variants',
      'boltzmann',
      ...tinyRunFlags(3),
      '--results',
      dir,
      '--save-models',
    ];
    expect(await main(args, { out: () => undefined, err: () => undefined })).toBe(0);
    const [config] = expandGrid(parseBenchArgs(args, () => undefined)!);
    const path = modelPath(dir, runId(config!));
    expect(existsSync(path)).toBe(true);
    expect(path).toMatch(/\.safetensors$/);
    const bytes = readFileSync(path);
    const saved = decodeSavedModel(bytes);
    expect(saved.id).toBe(runId(config!));
    expect(saved.runConfig).toEqual(config);
    // 4 bytes a weight: the file is its header and the weights as float32, nothing else.
    const header = Number(bytes.readBigUInt64LE(0));
    const weights = Object.values(saved.model.weights).reduce((n, w) => n + w.data.length, 0);
    expect(bytes.length).toBe(8 + header + 4 * weights);
    await initBackend('wasm', { log: () => undefined });
    const model = loadTransformer(saved.model);
    expect(model.couplings()[0]).toHaveLength(16);
    model.dispose();
    // Without the flag nothing is written there.
    const plain = mkdtempSync(join(tmpdir(), 'bench-no-models-'));
    expect(
      await main(args.slice(0, -3).concat(['--results', plain]), {
        out: () => undefined,
        err: () => undefined,
      }),
    ).toBe(0);
    expect(existsSync(join(plain, 'models'))).toBe(false);
  });
});
