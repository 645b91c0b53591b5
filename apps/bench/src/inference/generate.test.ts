import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTransformer,
  encodeModelFile,
  initBackend,
  loadTransformer,
} from '@boltzmann/attention';
import type { TransformerJSON } from '@boltzmann/attention';
import { loadTinyShakespeare } from '@boltzmann/datasets';
import type { CharVocab } from '@boltzmann/datasets';
import { createRng } from '@boltzmann/ising-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, parseSampleArgs, pickToken } from '../index.js';
import type { RunConfig } from '../index.js';
import { encodeSavedModel } from '../results/savedModelFile.js';

const repo = fileURLToPath(new URL('../../../..', import.meta.url));
const MODEL = join(
  repo,
  'docs/results/shakespeare/models/shakespeare-boltzmann-T8-d64-ffn-s0-a66b289e5469.json',
);
const saved = JSON.parse(readFileSync(MODEL, 'utf8')) as {
  id: string;
  config: Record<string, unknown>;
  model: TransformerJSON;
};
const dir = mkdtempSync(join(tmpdir(), 'bench-sample-'));
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** Runs `bench sample` in process; returns the exit code, the streamed text, stdout lines and stderr lines. */
async function sample(
  ...args: string[]
): Promise<{ code: number; text: string; writes: number; out: string[]; err: string[] }> {
  let text = '';
  let writes = 0;
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['sample', ...args], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    write: (s) => {
      text += s;
      writes += 1;
    },
  });
  return { code, text, writes, out, err };
}

let vocab: CharVocab;
beforeAll(async () => {
  // As the bench finds it: $BOLTZMANN_DATA_DIR (set by the test runs), else the copy in the repository.
  vocab = (
    await loadTinyShakespeare(process.env.BOLTZMANN_DATA_DIR ? {} : { dataDir: join(repo, 'data') })
  ).vocab;
  await initBackend('wasm', { log: () => undefined });
});

describe('bench sample', () => {
  it('streams exactly --chars characters of the vocabulary, one write each, nothing else on stdout, deterministic under a seed', async () => {
    const a = await sample('--model', MODEL, '--chars', '60', '--seed', '3', '--no-echo');
    expect(a.code).toBe(0);
    expect([...a.text]).toHaveLength(60);
    expect(a.writes).toBe(60);
    expect([...a.text].every((ch) => vocab.idOf(ch) >= 0)).toBe(true);
    expect(a.out).toEqual([]);
    const again = await sample('--model', MODEL, '--chars', '60', '--seed', '3', '--no-echo');
    expect(again.text).toBe(a.text);
    const other = await sample('--model', MODEL, '--chars', '60', '--seed', '4', '--no-echo');
    expect(other.text).toHaveLength(60);
    expect(other.text).not.toBe(a.text);
  });

  it('greedy decoding (temperature 0) equals argmax decoding computed from model.logits; top-k 1 equals greedy', async () => {
    const prompt = 'ROMEO:\nWhat say';
    const chars = 40;
    const model = loadTransformer(saved.model);
    const T = model.config.maxLength;
    const context = Array.from(vocab.encode(prompt));
    let expected = '';
    for (let i = 0; i < chars; i++) {
      const window = context.slice(-T);
      const logits = model.logits(Int32Array.from(window), 1);
      const all = logits.dataSync();
      logits.dispose();
      const last = all.subarray((window.length - 1) * vocab.size, window.length * vocab.size);
      let best = 0;
      for (let k = 1; k < last.length; k++) if (last[k]! > last[best]!) best = k;
      expected += vocab.chars[best]!;
      context.push(best);
    }
    model.dispose();
    const greedy = await sample(
      '--model',
      MODEL,
      '--prompt',
      prompt,
      '--chars',
      String(chars),
      '--temperature',
      '0',
    );
    expect(greedy.code).toBe(0);
    expect(greedy.text).toBe(prompt + expected);
    const top1 = await sample(
      '--model',
      MODEL,
      '--prompt',
      prompt,
      '--chars',
      String(chars),
      '--top-k',
      '1',
      '--seed',
      '9',
    );
    expect(top1.text).toBe(prompt + expected);
  });

  it('echoes the prompt before the generated text, with the first character (never alone on a failure)', async () => {
    const args = ['--model', MODEL, '--prompt', 'ROMEO:', '--chars', '5', '--seed', '2'];
    const echoed = await sample(...args);
    expect(echoed.code).toBe(0);
    expect(echoed.writes).toBe(6);
    const bare = await sample(...args, '--no-echo');
    expect(echoed.text).toBe(`ROMEO:${bare.text}`);
    expect([...bare.text]).toHaveLength(5);
    const typo = await sample('--model', MODEL, '--prompt', 'ROMEO:', '--sampler', 'exatc');
    expect({ code: typo.code, text: typo.text }).toEqual({ code: 1, text: '' });
    expect(typo.err.join('\n')).toContain(
      'error [BENCH_INVALID_OPTION]: --sampler "exatc" is not one of the registered samplers: did you mean "exact"?',
    );
  });

  it('reads a bare TransformerJSON file, and the same model as safetensors (saved and bare), as the JSON --save-models file; a short prompt runs as a shorter sequence', async () => {
    const bare = file('bare.json', JSON.stringify(saved.model));
    const asSafetensors = join(dir, 'saved.safetensors');
    writeFileSync(
      asSafetensors,
      encodeSavedModel(saved.id, saved.config as unknown as RunConfig, saved.model),
    );
    const bareSafetensors = join(dir, 'bare.safetensors');
    writeFileSync(bareSafetensors, encodeModelFile(saved.model));
    const a = await sample('--model', MODEL, '--chars', '30', '--prompt', 'A', '--top-k', '5');
    expect(a.code).toBe(0);
    for (const path of [bare, asSafetensors, bareSafetensors]) {
      const b = await sample('--model', path, '--chars', '30', '--prompt', 'A', '--top-k', '5');
      expect(b.code, path).toBe(0);
      expect(b.text, path).toBe(a.text);
    }
    const cut = join(dir, 'cut.safetensors');
    writeFileSync(cut, encodeModelFile(saved.model).subarray(0, -4));
    const c = await sample('--model', cut, '--chars', '3');
    expect(c.code).toBe(1);
    expect(c.err.join('\n')).toMatch(/BENCH_BAD_MODEL.*ATTENTION_SAFETENSORS_OFFSETS/);
  });

  it('gives each bad model, prompt and number its code and exit code', async () => {
    const bracket = createTransformer({
      vocabSize: 2,
      maxLength: 8,
      outputSize: 8,
      variant: 'softmax',
      dModel: 8,
      ffn: false,
    });
    const bracketJson = bracket.toJSON();
    bracket.dispose();
    const cases: Array<[string[], string, number]> = [
      [['--model', join(dir, 'missing.json')], 'BENCH_MODEL_NOT_FOUND', 1],
      [['--model', file('corrupt.json', '{"id": "x", "model": {')], 'BENCH_BAD_MODEL', 1],
      [['--model', file('other.json', '{"hello": 1}')], 'BENCH_BAD_MODEL', 1],
      [
        ['--model', file('noweights.json', JSON.stringify({ ...saved.model, weights: {} }))],
        'BENCH_BAD_MODEL',
        1,
      ],
      [
        [
          '--model',
          file(
            'brackets.json',
            JSON.stringify({ id: 'b', config: { dataset: 'brackets' }, model: bracketJson }),
          ),
        ],
        'BENCH_MODEL_MISMATCH',
        1,
      ],
      [
        ['--model', file('bracket-bare.json', JSON.stringify(bracketJson))],
        'BENCH_MODEL_MISMATCH',
        1,
      ],
      [['--model', MODEL, '--prompt', 'Hello ~ world'], 'BENCH_BAD_PROMPT', 1],
      [['--model', MODEL, '--temperature', '-1'], 'BENCH_INVALID_OPTION', 2],
      [['--model', MODEL, '--temperature', 'hot'], 'BENCH_INVALID_OPTION', 2],
      [['--model', MODEL, '--chars', '0'], 'BENCH_INVALID_OPTION', 2],
      [['--model', MODEL, '--top-k', '0'], 'BENCH_INVALID_OPTION', 2],
      [['--model', MODEL, '--prompt', ''], 'BENCH_INVALID_OPTION', 2],
      [['--chars', '5'], 'BENCH_INVALID_OPTION', 2],
    ];
    for (const [args, code, exit] of cases) {
      const r = await sample(...args);
      expect({ args, exit: r.code, line: r.err[0] }).toMatchObject({
        exit,
        line: expect.stringContaining(`error [${code}]:`),
      });
      expect(r.text).toBe('');
    }
    const prompt = await sample('--model', MODEL, '--prompt', 'Hello ~ world');
    expect(prompt.err[0]).toContain('"~"');
    expect(prompt.err[0]).toContain('character 6');
    const mismatch = await sample('--model', join(dir, 'bracket-bare.json'));
    expect(mismatch.err[0]).toContain('vocabSize 2 and outputSize 8');
  });

  it('reproduces the example output of the README\'s "Sampling text" section', async () => {
    const readme = readFileSync(join(repo, 'apps/bench/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Sampling text'));
    const command = /```sh\n([\s\S]*?)\n```/
      .exec(section)![1]!
      .replace(/\\\n\s*/g, ' ')
      .replace(/ +/g, ' ');
    const example = /```text\n([\s\S]*?)\n```/.exec(section)![1]!;
    const args = [
      '--model',
      MODEL,
      '--prompt',
      'ROMEO:',
      '--chars',
      '200',
      '--temperature',
      '0.8',
      '--seed',
      '1',
    ];
    expect(command).toContain(
      `sample --model docs/results/shakespeare/models/${saved.id}.json --prompt 'ROMEO:' --chars 200 --temperature 0.8 --seed 1`,
    );
    const r = await sample(...args);
    expect(r.text).toBe(example);
  });

  it('parses the defaults', () => {
    const cmd = parseSampleArgs(['sample', '--model', MODEL], () => undefined)!;
    expect(cmd).toMatchObject({
      modelPath: MODEL,
      prompt: '\n',
      chars: 500,
      temperature: 1,
      topK: undefined,
      seed: 0,
    });
  });

  it('pickToken draws from softmax(logits / temperature) within the top k', () => {
    const rng = createRng(1);
    const logits = [0, Math.log(3), -50];
    let ones = 0;
    const n = 4000;
    for (let i = 0; i < n; i++) if (pickToken(logits, { temperature: 1 }, rng) === 1) ones += 1;
    expect(ones / n).toBeGreaterThan(0.72);
    expect(ones / n).toBeLessThan(0.78);
    for (let i = 0; i < 200; i++)
      expect(pickToken([0, 1, 2, 1.5], { temperature: 5, topK: 2 }, rng)).toBeGreaterThanOrEqual(2);
    expect(pickToken([0, 2, 2], { temperature: 0 }, rng)).toBe(1);
  });

  it('as a child process, writes only the prompt and the generated text to stdout', () => {
    const cli = fileURLToPath(new URL('../cli/bin.ts', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=@boltzmann/source',
        cli,
        'sample',
        '--model',
        MODEL,
        '--chars',
        '25',
        '--seed',
        '3',
      ],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
        timeout: 50_000,
      },
    );
    expect(r.status).toBe(0);
    // The default prompt, a newline, then the 25 characters.
    expect(r.stdout[0]).toBe('\n');
    expect([...r.stdout]).toHaveLength(26);
    expect(r.stderr).toContain('TensorFlow.js backend');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
