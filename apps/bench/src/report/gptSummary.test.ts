import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnOf, orderColumns } from './columns.js';
import { PUBLISHED_BABY_VAL_LOSS, gptCurvesSpec, gptTable } from './gptSummary.js';
import { syntheticRecords } from '../testing/fixtures.js';
import { main } from '../cli/main.js';
import { renderSvg } from './plots/plots.js';
import { meanStd } from './stats.js';
import type { RunRecord } from '../recordTypes.js';

/** Synthetic gpt records: `loss(config)` is the final val loss; train = val − 0.1. */
function gptRecords(argv: string[], loss: (c: RunRecord['config']) => number): RunRecord[] {
  return syntheticRecords(['gpt', ...argv], (c) => Math.exp(loss(c))).map((r) => {
    const v = loss(r.config);
    return {
      ...r,
      finalLoss: v,
      wallSeconds: r.config.steps * 0.5,
      gptEval: {
        train: [
          { step: 0, value: 4.2 },
          { step: r.config.steps, value: v - 0.1 },
        ],
        val: [
          { step: 0, value: 4.2 },
          { step: r.config.steps, value: v },
        ],
      },
    };
  });
}

const baby = ['--preset', 'baby', '--seeds', '0,1,2'];

describe('gpt summary', () => {
  it('reports boltzmann runs of different samplers and J forms as separate columns, in variant order', () => {
    const [tap] = gptRecords([...baby, '--variants', 'boltzmann', '--sampler', 'tap'], () => 1.9);
    const [tm] = gptRecords(
      [
        ...baby,
        '--variants',
        'boltzmann',
        '--sampler',
        'transfer-matrix',
        '--couplings',
        'banded:8',
      ],
      () => 1.9,
    );
    const [soft] = gptRecords([...baby, '--variants', 'softmax'], () => 1.9);
    expect([columnOf(tap!), columnOf(tm!), columnOf(soft!)]).toEqual([
      'boltzmann (tap)',
      'boltzmann (transfer-matrix, banded:8)',
      'softmax',
    ]);
    const [nope] = gptRecords([...baby, '--variants', 'softmax', '--positions', 'none'], () => 1.9);
    const [rel] = gptRecords(
      [...baby, '--variants', 'boltzmann', '--couplings', 'relative', '--positions', 'none'],
      () => 1.9,
    );
    expect([columnOf(nope!), columnOf(rel!)]).toEqual([
      'softmax (no positions)',
      'boltzmann (tap, relative, no positions)',
    ]);
    expect(nope!.config.positions).toBe('none');
    expect(soft!.config).not.toHaveProperty('positions');
    expect(
      orderColumns([
        'sigmoid',
        'boltzmann (tap)',
        'softmax',
        'boltzmann',
        'boltzmann (transfer-matrix, banded:8)',
      ]),
    ).toEqual([
      'softmax',
      'boltzmann',
      'boltzmann (tap)',
      'boltzmann (transfer-matrix, banded:8)',
      'sigmoid',
    ]);
  });

  it('tables val/train loss (mean ± std), perplexity, the paired difference to softmax and s/iteration, with the published 1.88 for baby', () => {
    const records = [
      ...gptRecords(
        [...baby, '--variants', 'softmax,sigmoid'],
        (c) => (c.variant === 'softmax' ? 1.9 : 2.0) + 0.01 * c.seed,
      ),
      ...gptRecords(
        [...baby, '--variants', 'boltzmann', '--sampler', 'tap'],
        (c) => 1.85 + 0.02 * c.seed,
      ),
    ];
    const t = gptTable(records);
    expect(t.head).toEqual([
      'T',
      'variant',
      'seeds',
      'val loss (nats/char)',
      'val perplexity',
      'train loss',
      'Δ val loss vs softmax (paired)',
      's / iteration',
    ]);
    expect(t.body.map((r) => r[1])).toEqual([
      'softmax',
      'boltzmann (tap)',
      'sigmoid',
      'published: nanoGPT softmax (PyTorch)',
    ]);
    const [soft, tap, sig, published] = t.body;
    const ppl = meanStd([1.9, 1.91, 1.92].map(Math.exp));
    expect(soft).toEqual([
      '64',
      'softmax',
      '0, 1, 2',
      '1.910 ± 0.010',
      `${ppl.mean.toFixed(2)} ± ${ppl.std.toFixed(2)}`,
      '1.810 ± 0.010',
      '—',
      '0.50 ± 0.00',
    ]);
    // Paired per seed: (1.85 + 0.02 s) − (1.9 + 0.01 s) = −0.05 + 0.01 s → mean −0.04, std 0.01.
    expect(tap![6]).toBe('−0.040 ± 0.010');
    expect(sig![6]).toBe('+0.100 ± 0.000');
    expect(published!.slice(3, 5)).toEqual([
      PUBLISHED_BABY_VAL_LOSS.toFixed(2),
      Math.exp(1.88).toFixed(2),
    ]);
    // Not the baby configuration: no published row.
    expect(
      gptTable(gptRecords(['--variants', 'softmax', '--seeds', '0'], () => 2)).body.map(
        (r) => r[1],
      ),
    ).toEqual(['softmax']);
  });

  it('says machines differ instead of averaging the time of runs from two machines', () => {
    const records = gptRecords(['--variants', 'softmax', '--seeds', '0,1'], () => 2);
    const onTwo = records.map((r) => ({
      ...r,
      engine: {
        line: `engine: native ${r.config.seed === 0 ? 'avx2' : 'avx512'}`,
      } as RunRecord['engine'],
    }));
    expect(gptTable(records).body[0]![7]).not.toBe('machines differ');
    expect(gptTable(onTwo).body[0]![7]).toBe('machines differ');
  });

  it('keeps lengths apart: one row per T and variant, pairing with softmax at the same T and seed', () => {
    const records = gptRecords(
      ['--preset', 'long', '--variants', 'softmax,sigmoid', '--lengths', '16,64', '--seeds', '0,1'],
      // softmax 2.0 at T = 16 and 1.8 at T = 64; sigmoid 0.1 worse at 16, 0.3 at 64.
      (c) =>
        (c.length === 16 ? 2.0 : 1.8) +
        (c.variant === 'sigmoid' ? (c.length === 16 ? 0.1 : 0.3) : 0) +
        0.01 * c.seed,
    );
    const t = gptTable(records);
    expect(t.body.map((r) => [r[0], r[1], r[3], r[6]])).toEqual([
      ['16', 'softmax', '2.005 ± 0.007', '—'],
      ['16', 'sigmoid', '2.105 ± 0.007', '+0.100 ± 0.000'],
      ['64', 'softmax', '1.805 ± 0.007', '—'],
      ['64', 'sigmoid', '2.105 ± 0.007', '+0.300 ± 0.000'],
    ]);
    // The chart under its variant legend (variantLegend.ts).
    const chart = (gptCurvesSpec(records) as unknown as { vconcat: unknown[] }).vconcat[1] as {
      data: { values: { panel: string }[] };
    };
    const panels = chart.data.values.map((v) => v.panel);
    expect([...new Set(panels)].sort()).toEqual([
      'T=16, train loss',
      'T=16, val loss',
      'T=64, train loss',
      'T=64, val loss',
    ]);
  });

  it('plots train and val loss per run', async () => {
    const spec = gptCurvesSpec(gptRecords([...baby, '--variants', 'softmax,sigmoid'], () => 2))!;
    const svg = await renderSvg(spec);
    expect(svg).toContain('train loss');
    expect(svg).toContain('val loss');
    expect(
      gptCurvesSpec(syntheticRecords(['shakespeare', '--lengths', '4', '--seeds', '0'], () => 5)),
    ).toBeNull();
  });
});

describe('bench report', () => {
  const write = (dir: string, records: RunRecord[]): void => {
    mkdirSync(join(dir, 'runs'), { recursive: true });
    for (const r of records) writeFileSync(join(dir, 'runs', `${r.id}.json`), JSON.stringify(r));
  };
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
  };

  it('reports the runs of several folders (a grid run in slices) as one, each run once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bench-report-cmd-'));
    const soft = gptRecords([...baby, '--variants', 'softmax'], () => 1.9);
    const tap = gptRecords([...baby, '--variants', 'boltzmann', '--sampler', 'tap'], () => 1.95);
    write(join(root, 'a'), [...soft, tap[0]!]);
    write(join(root, 'b'), tap);
    mkdirSync(join(root, 'c')); // a slice with no finished run yet
    const { out, io: sink } = io();
    const code = await main(
      [
        'report',
        '--results',
        join(root, 'a'),
        '--results',
        join(root, 'b'),
        '--results',
        join(root, 'c'),
        '--out',
        join(root, 'all'),
      ],
      sink,
    );
    expect(code).toBe(0);
    expect(out[0]).toBe('6 runs of gpt from 3 folder(s)');
    const md = readFileSync(join(root, 'all', 'summary.md'), 'utf8');
    expect(md).toContain('| boltzmann (tap) | 0, 1, 2 | 1.950 ± 0.000 |');
    expect(md).toContain('![shakespeare: train and val loss');
  });

  it('gives coded errors for a missing folder, no runs, and mixed experiments', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bench-report-bad-'));
    const run = async (...dirs: string[]) => {
      const { err, io: sink } = io();
      const code = await main(
        ['report', ...dirs.flatMap((d) => ['--results', join(root, d)])],
        sink,
      );
      return { code, err: err.join('\n') };
    };
    expect(await run('nowhere')).toMatchObject({
      code: 1,
      err: expect.stringContaining('BENCH_NO_RESULTS'),
    });
    mkdirSync(join(root, 'empty'));
    expect(await run('empty')).toMatchObject({
      code: 1,
      err: expect.stringContaining('BENCH_NO_RESULTS'),
    });
    write(join(root, 'mixed'), [
      ...gptRecords(['--variants', 'softmax', '--seeds', '0'], () => 2),
      ...syntheticRecords(['shakespeare', '--lengths', '4', '--seeds', '0'], () => 5),
    ]);
    expect(await run('mixed')).toMatchObject({
      code: 1,
      err: expect.stringContaining('BENCH_RESULTS_INVALID'),
    });
    const { code, err } = await (async () => {
      const s = io();
      return { code: await main(['report'], s.io), err: s.err.join('\n') };
    })();
    expect(code).toBe(2);
    expect(err).toContain('BENCH_INVALID_OPTION');
  });
});
