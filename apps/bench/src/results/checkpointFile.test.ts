// Checkpoints as safetensors: every number back bit for bit (F32 where the values are float32,
// F64 where the tfjs trainer's float64 moments are not), runs resumed from them equal to
// uninterrupted runs on both engines, and JSON checkpoints of earlier releases still resuming.
import { decodeSafetensors, encodeSafetensors } from '@boltzmann/attention';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import type { RunRecord } from '../index.js';
import { progressRecorder, tinyRunFlags } from '../testing/fixtures.js';
import { decodeCheckpoint, encodeCheckpoint, parseCheckpoint } from './checkpointFile.js';
import type { Checkpoint } from './checkpointValidation.js';
import { checkpointPath, legacyCheckpointPath, modelPath, recordPath } from './runFiles.js';

/** One softmax run of 8 steps on `engine`, checkpoints every 2 steps, in process. */
const args = (dir: string, engine: 'wasm' | 'tfjs') => [
  'shakespeare',
  '--lengths',
  '4',
  '--variants',
  'softmax',
  ...tinyRunFlags(8),
  '--checkpoint-every',
  '2',
  '--engine',
  engine,
  '--save-models',
  '--results',
  dir,
];

/** Runs the grid; with `stopAt`, interrupts it at that step (after the checkpoint before it). */
async function run(dir: string, engine: 'wasm' | 'tfjs', stopAt?: number) {
  const controller = new AbortController();
  const recorder = progressRecorder((p) => {
    if (stopAt !== undefined && p.step >= stopAt) controller.abort();
  });
  const io = { out: () => undefined, err: () => undefined, progress: recorder.progress };
  const code = await main(args(dir, engine), { ...io, signal: controller.signal });
  return { code, starts: recorder.starts.map((s) => s.startStep) };
}

/** What must not differ between a resumed and an uninterrupted run: curves, figures and every weight's bits. */
const outcome = (dir: string, id: string) => {
  const r = JSON.parse(readFileSync(recordPath(dir, id), 'utf8')) as RunRecord;
  const weights = decodeSafetensors(readFileSync(modelPath(dir, id))).tensors;
  const bits = [...weights].map(([name, t]) => [
    name,
    Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('hex'),
  ]);
  return [r.trainLoss, r.evalMetric, r.finalMetric, r.finalLoss, bits];
};

const sameBits = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

describe('checkpoint files', () => {
  it('keep every number: float32 values as F32, float64 ones (0.1, 1/3) as F64; the rest as JSON', () => {
    const checkpoint = {
      version: 1,
      id: 'run',
      step: 2,
      trainLoss: [{ step: 1, value: 0.1 }],
      dataState: [1, null, 3.5],
      engine: {
        model: {
          format: 'boltzmann-attention/transformer',
          version: 1,
          config: { dModel: 8 },
          weights: { w: { shape: [2, 2], data: [1, -0, 0.5, Math.fround(0.1)] } },
        },
        trainer: {
          format: 'boltzmann-attention/trainer',
          version: 1,
          step: 2,
          lrScale: 0.25,
          moments: {
            w: { m: [0.1, 1 / 3, -0, 2], v: [Math.fround(0.3), 0, 1e-30, 4] },
          },
        },
      },
    } as unknown as Checkpoint;
    const bytes = encodeCheckpoint(checkpoint);
    const dtypes = Object.fromEntries(
      [...decodeSafetensors(bytes).tensors].map(([name, t]) => [name, t.dtype]),
    );
    expect(dtypes).toEqual({ 'model/w': 'F32', 'trainer/w/m': 'F64', 'trainer/w/v': 'F64' });
    const back = decodeCheckpoint(bytes);
    expect(back).toEqual(checkpoint);
    const { moments } = (
      back.engine as typeof checkpoint.engine & { trainer: { moments: { w: { m: number[] } } } }
    ).trainer;
    expect(sameBits(moments.w.m, [0.1, 1 / 3, -0, 2])).toBe(true);
    // The JSON form (earlier releases) reads as JSON does: −0 comes back as 0 there.
    const text = JSON.stringify(checkpoint);
    expect(parseCheckpoint(new TextEncoder().encode(text))).toEqual(JSON.parse(text));
    expect(() => decodeCheckpoint(bytes.subarray(0, -4))).toThrow(
      expect.objectContaining({ code: 'ATTENTION_SAFETENSORS_OFFSETS' }),
    );
  });

  it('read a tensor named after __proto__ as a key: nothing written through a prototype', () => {
    const { metadata } = decodeSafetensors(
      encodeCheckpoint({
        version: 1,
        engine: { model: { weights: {} }, trainer: { moments: {} } },
      } as unknown as Checkpoint),
    );
    const hostile = encodeSafetensors(
      {
        'model/__proto__': { dtype: 'F32', shape: [1], data: [1] },
        'trainer/__proto__/m': { dtype: 'F32', shape: [1], data: [2] },
      },
      metadata,
    );
    const back = decodeCheckpoint(hostile) as unknown as {
      engine: { model: { weights: object }; trainer: { moments: object } };
    };
    expect(Object.keys(back.engine.model.weights)).toEqual(['__proto__']);
    expect(Object.keys(back.engine.trainer.moments)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(back.engine.trainer.moments)).toBe(Object.prototype);
    expect((Object.prototype as { m?: unknown }).m).toBeUndefined();
  });

  it.each(['wasm', 'tfjs'] as const)(
    'a run on %s resumed from its safetensors checkpoint ends exactly as an uninterrupted one',
    async (engine) => {
      const dir = mkdtempSync(join(tmpdir(), `bench-ckpt-${engine}-`));
      const [config] = expandGrid(parseBenchArgs(args(dir, engine), () => undefined)!);
      const id = runId(config!);
      expect((await run(dir, engine, 5)).code).toBe(130);
      const bytes = readFileSync(checkpointPath(dir, id));
      const { tensors } = decodeSafetensors(bytes);
      // The engine's moments are float32; the tfjs trainer's are float64.
      const momentDtype = [...tensors].find(([name]) => name.endsWith('/m'))![1].dtype;
      expect(momentDtype).toBe(engine === 'wasm' ? 'F32' : 'F64');
      const at = decodeCheckpoint(bytes).step;
      expect(at).toBeGreaterThanOrEqual(5);
      expect((await run(dir, engine)).starts).toEqual([at]);
      const fresh = mkdtempSync(join(tmpdir(), `bench-ckpt-${engine}-fresh-`));
      expect((await run(fresh, engine)).code).toBe(0);
      expect(outcome(dir, id)).toEqual(outcome(fresh, id));
    },
  );

  it('a JSON checkpoint of an earlier release still resumes, to the same end, and is then removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-ckpt-legacy-'));
    const [config] = expandGrid(parseBenchArgs(args(dir, 'wasm'), () => undefined)!);
    const id = runId(config!);
    expect((await run(dir, 'wasm', 5)).code).toBe(130);
    const checkpoint = decodeCheckpoint(readFileSync(checkpointPath(dir, id)));
    rmSync(checkpointPath(dir, id));
    writeFileSync(legacyCheckpointPath(dir, id), JSON.stringify(checkpoint));
    expect((await run(dir, 'wasm')).starts).toEqual([checkpoint.step]);
    expect(existsSync(legacyCheckpointPath(dir, id))).toBe(false);
    const fresh = mkdtempSync(join(tmpdir(), 'bench-ckpt-legacy-fresh-'));
    expect((await run(fresh, 'wasm')).code).toBe(0);
    expect(outcome(dir, id)).toEqual(outcome(fresh, id));
  });
});
