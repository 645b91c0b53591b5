import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, modelPath, parseBenchArgs, runId } from '../index.js';
import { tinyRunFlags } from '../testing/fixtures.js';
import { decodeSavedModel } from '../results/savedModelFile.js';

const tiny = ['--lengths', '8', ...tinyRunFlags(4), '--save-models'];

async function train(dir: string, ...argv: string[]): Promise<string> {
  const args = ['shakespeare', ...tiny, '--results', dir, ...argv];
  expect(await main(args, { out: () => undefined, err: () => undefined })).toBe(0);
  const [config] = expandGrid(parseBenchArgs(args, () => undefined)!);
  return modelPath(dir, runId(config!));
}

async function extrapolate(
  ...argv: string[]
): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['extrapolate', ...argv], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err: err.join('\n') };
}

describe('bench extrapolate', () => {
  it('evaluates a no-positions model (softmax; boltzmann with relative J on tap) at longer T than it was trained at', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-extrapolate-'));
    for (const extra of [
      ['--variants', 'softmax'],
      ['--variants', 'boltzmann', '--sampler', 'tap', '--couplings', 'relative'],
    ]) {
      const model = await train(dir, '--positions', 'none', ...extra);
      const out = join(dir, `${extra[1]}-long.json`);
      const r = await extrapolate('--model', model, '--lengths', '16,8,32', '--out', out);
      expect(r.err).not.toContain('error');
      expect(r.code).toBe(0);
      const saved = JSON.parse(readFileSync(out, 'utf8')) as {
        trainedAt: number;
        points: { T: number; loss: number; perplexity: number; sequences: number }[];
      };
      expect(saved.trainedAt).toBe(8);
      expect(saved.points.map((p) => p.T)).toEqual([8, 16, 32]);
      for (const p of saved.points) {
        expect(p.loss).toBeGreaterThan(0);
        expect(p.perplexity).toBeCloseTo(Math.exp(p.loss), 9);
        expect(p.sequences).toBe(8);
      }
      // At the training length it is the run's own final evaluation.
      const record = JSON.parse(
        readFileSync(
          model.replace('/models/', '/runs/').replace(/\.safetensors$/, '.json'),
          'utf8',
        ),
      ) as {
        finalLoss: number;
      };
      expect(saved.points[0]!.loss, extra[1]).toBeCloseTo(record.finalLoss, 5);
      expect(r.out.some((l) => l.startsWith('T = 32: val loss'))).toBe(true);
    }
  });

  it('says why a model cannot run longer, and refuses bad input with codes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-extrapolate-bad-'));
    const learned = await train(dir, '--variants', 'softmax');
    expect(await extrapolate('--model', learned, '--lengths', '16')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/BENCH_MODEL_MISMATCH.*learned positional embedding/),
    });
    const full = await train(dir, '--variants', 'boltzmann', '--positions', 'none');
    expect(await extrapolate('--model', full, '--lengths', '16')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/BENCH_MODEL_MISMATCH.*full J/),
    });
    expect(await extrapolate('--model', full, '--lengths', '4')).toMatchObject({
      code: 1,
      err: expect.stringContaining('BENCH_INVALID_OPTION'),
    });
    const bare = join(dir, 'bare.json');
    writeFileSync(bare, JSON.stringify(decodeSavedModel(readFileSync(full)).model));
    expect(await extrapolate('--model', bare, '--lengths', '16')).toMatchObject({
      code: 1,
      err: expect.stringContaining('BENCH_BAD_MODEL'),
    });
    expect(
      await extrapolate('--model', join(dir, 'missing.json'), '--lengths', '16'),
    ).toMatchObject({ code: 1, err: expect.stringContaining('BENCH_MODEL_NOT_FOUND') });
    expect(await extrapolate('--lengths', '16')).toMatchObject({
      code: 2,
      err: expect.stringContaining('BENCH_INVALID_OPTION'),
    });
  });
});
