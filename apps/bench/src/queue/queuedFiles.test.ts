// The files a job carries through Redis, without Redis: a checkpoint as base64 safetensors or as
// the JSON object of an earlier release, and a --save-models model as base64 (queueGrid.test.ts
// runs them through a real Redis and workers).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import type { RunConfig } from '../index.js';
import { progressRecorder, tinyRunFlags } from '../testing/fixtures.js';
import { decodeCheckpoint } from '../results/checkpointFile.js';
import { checkpointPath, legacyCheckpointPath, modelPath } from '../results/runFiles.js';
import { encodeSavedModel } from '../results/savedModelFile.js';
import { checkpointForRedis, stageJobCheckpoint, writeJobModel } from './queuedFiles.js';

/** A real checkpoint (a softmax run stopped at step 3) and its run's config. */
async function stoppedRun() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-queued-'));
  const args = ['shakespeare', '--lengths', '4', '--variants', 'softmax', ...tinyRunFlags(6)];
  const all = [...args, '--checkpoint-every', '2', '--save-models', '--results', dir];
  const controller = new AbortController();
  const { progress } = progressRecorder((p) => {
    if (p.step >= 3) controller.abort();
  });
  const io = { out: () => undefined, err: () => undefined, progress, signal: controller.signal };
  expect(await main(all, io)).toBe(130);
  const config = expandGrid(parseBenchArgs(all, () => undefined)!)[0]! as RunConfig;
  const id = runId(config);
  return { config, id, checkpoint: decodeCheckpoint(readFileSync(checkpointPath(dir, id))) };
}

describe('files carried by queue jobs', () => {
  it('stages a base64 safetensors checkpoint, an older JSON one, and refuses others with the reason', async () => {
    const { config, id, checkpoint } = await stoppedRun();
    const scratch = mkdtempSync(join(tmpdir(), 'bench-queued-scratch-'));
    const carried = checkpointForRedis(checkpoint);
    expect(typeof carried).toBe('string');
    expect(stageJobCheckpoint(carried, id, config, scratch)).toBeUndefined();
    expect(decodeCheckpoint(readFileSync(checkpointPath(scratch, id)))).toEqual(checkpoint);
    expect(stageJobCheckpoint(checkpoint, id, config, scratch)).toBeUndefined();
    expect(existsSync(checkpointPath(scratch, id))).toBe(false);
    expect(JSON.parse(readFileSync(legacyCheckpointPath(scratch, id), 'utf8')).step).toBe(
      checkpoint.step,
    );
    expect(stageJobCheckpoint('bm90IGEgY2hlY2twb2ludA==', id, config, scratch)).toMatch(
      /^it is unreadable/,
    );
    expect(stageJobCheckpoint(carried, 'other-run', config, scratch)).toMatch(/belongs to run/);
    for (const path of [checkpointPath(scratch, id), legacyCheckpointPath(scratch, id)])
      expect(existsSync(path)).toBe(false);
    expect(stageJobCheckpoint(undefined, id, config, scratch)).toBeUndefined();
  });

  it("writes a job's base64 model as models/<id>.safetensors once it names the run", async () => {
    const { config, id, checkpoint } = await stoppedRun();
    const model = (checkpoint.engine as { model: Parameters<typeof encodeSavedModel>[2] }).model;
    const dir = mkdtempSync(join(tmpdir(), 'bench-queued-models-'));
    const bytes = encodeSavedModel(id, config, model);
    writeJobModel(dir, id, Buffer.from(bytes).toString('base64'));
    expect(new Uint8Array(readFileSync(modelPath(dir, id)))).toEqual(bytes);
    const other = Buffer.from(encodeSavedModel('other', config, model)).toString('base64');
    expect(() => writeJobModel(dir, id, other)).toThrow(
      expect.objectContaining({ code: 'BENCH_INVALID_JOB' }),
    );
    expect(() => writeJobModel(dir, id, 'AAAA')).toThrow(
      expect.objectContaining({ code: 'BENCH_INVALID_JOB' }),
    );
    writeJobModel(dir, id, { id, config, model });
    expect(JSON.parse(readFileSync(join(dir, 'models', `${id}.json`), 'utf8')).id).toBe(id);
  });
});
