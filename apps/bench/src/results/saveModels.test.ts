import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initBackend, loadTransformer } from '@boltzmann/attention';
import type { TransformerJSON } from '@boltzmann/attention';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, modelPath, parseBenchArgs, runId } from '../index.js';
import { tinyRunFlags } from '../testing/fixtures.js';

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
    const saved = JSON.parse(readFileSync(path, 'utf8')) as {
      id: string;
      config: unknown;
      model: TransformerJSON;
    };
    expect(saved.id).toBe(runId(config!));
    expect(saved.config).toEqual(config);
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
