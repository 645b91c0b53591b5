/*
 * The accuracy study of issue 11 (METHOD.md §6): tap and mean-field against exact enumeration
 * on random problems and on the real fields and learned J of trained Tiny Shakespeare models,
 * and banded exact inference (transfer matrix) against the full J.
 *
 *   npx tsx --conditions=@boltzmann/source src/scripts/approximationStudy.ts \
 *     --models <results>/models --out ../../docs/results/approximations
 */
import { initBackend } from '@boltzmann/attention';
import { Command } from 'commander';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../results/atomicWrite.js';
import { shakespeareCorpus } from '../experiments/taskData.js';
import { renderSvg } from '../report/plots/plots.js';
import { createBenchRegistry } from '../samplers/registry.js';
import { readModelFile } from '../inference/generate.js';
import { randomStudy } from './approximations/randomStudy.js';
import {
  randomErrorSpec,
  randomTable,
  trainedErrorSpec,
  trainedTable,
} from './approximations/studyReport.js';
import { trainedBatch, trainedStudy } from './approximations/trainedStudy.js';
import type { SavedModel, TrainedRow } from './approximations/trainedStudy.js';

const program = new Command('approximation-study')
  .option(
    '--models <dir>',
    'models saved by `bench shakespeare … --save-models` (their models/ folder)',
  )
  .option('--out <dir>', 'output folder', 'docs/results/approximations')
  .option('--problems <n>', 'random problems per cell', '16')
  .option('--windows <n>', 'validation windows per trained model', '32')
  .parse();
const opts = program.opts<{ models?: string; out: string; problems: string; windows: string }>();
const out = resolve(process.env.INIT_CWD ?? process.cwd(), opts.out);
const started = Date.now();
const registry = await createBenchRegistry();
const exact = registry.require('exact').create();
const dense = ['mean-field', 'tap']
  .filter((n) => registry.has(n))
  .map((n) => registry.require(n).create({ tolerance: 1e-12, maxIterations: 5000 }));
const log = (line: string): void => void process.stdout.write(`${line}\n`);

log(`random problems: samplers ${dense.map((s) => s.name).join(', ')} against exact`);
const sizes = [8, 12, 16, 20];
const sigmaJs = [0.02, 0.05, 0.1, 0.2, 0.5, 1];
const random = randomStudy(exact, dense, {
  sizes,
  sigmaJs,
  sigmaH: 1,
  problems: Number(opts.problems),
  seed: 11,
});

const trained: TrainedRow[] = [];
if (opts.models) {
  await initBackend('wasm', { log: () => undefined });
  const corpus = await shakespeareCorpus(undefined);
  const banded = registry.has('transfer-matrix')
    ? {
        sampler: (w: number) => registry.require('transfer-matrix').create({ bandwidth: w }),
        widths: [4, 8, 12],
      }
    : undefined;
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), opts.models);
  // --save-models files: models/<id>.safetensors, or the <id>.json of earlier releases.
  for (const file of readdirSync(dir)
    .filter((f) => /\.(json|safetensors)$/.test(f))
    .sort()) {
    const { json, runConfig } = readModelFile(join(dir, file));
    const id = file.replace(/\.(json|safetensors)$/, '');
    const saved = { id, config: runConfig, model: json } as SavedModel;
    if (saved.config?.variant !== 'boltzmann') continue;
    log(`trained: ${saved.id}`);
    const batch = await trainedBatch(saved, corpus, Number(opts.windows));
    trained.push(...trainedStudy(saved, batch, exact, dense, banded));
  }
}

writeJsonAtomic(join(out, 'results.json'), { random, trained });
writeFileAtomic(join(out, 'random-error.svg'), await renderSvg(randomErrorSpec(random)));
if (trained.length > 0)
  writeFileAtomic(join(out, 'trained-error.svg'), await renderSvg(trainedErrorSpec(trained)));
writeFileAtomic(
  join(out, 'tables.md'),
  `## Random problems (h ~ N(0, 1), J ~ N(0, σ_J²), ${opts.problems} problems per cell, β = 1)\n\n${randomTable(random)}\n\n` +
    (trained.length > 0
      ? `## Trained Tiny Shakespeare models (${opts.windows} validation windows each)\n\n${trainedTable(trained)}\n`
      : ''),
);
log(`wrote ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
