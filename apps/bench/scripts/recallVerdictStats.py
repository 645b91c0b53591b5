#!/usr/bin/env python3
"""The MQAR verdict's figures from a `bench recall` results folder, computed independently of the
bench (SciPy), for docs/results/long-context-converged/README.md:

- the per-seed table: held-out recall of every (T, pairs, variant, seed), taking of a run trained
  under two step caps the record at the higher cap (as the report's `latestOfFamilies` does);
- the paired t-tests against softmax with Holm's correction over each variant's cells, a check of
  the report's own (`summary.md`), and boltzmann against sigmoid, which the report does not test;
- each seed's difference averaged over the cells, t-tested over the seeds;
- the runs below 99 % per variant, and Fisher's exact test on those counts;
- the step of each run's best evaluation over softmax's on the same seed and cell (geometric mean,
  per seed, t-tested on the logarithms).

The last three were chosen after the runs were in and are not corrected for multiplicity.

    python3 apps/bench/scripts/recallVerdictStats.py docs/results/long-context-converged/recall

Needs numpy and scipy (Debian: python3-scipy).
"""
import argparse
import glob
import json
import math

import numpy as np
from scipy import stats

VARIANTS = ('softmax', 'sigmoid', 'boltzmann')
SEEDS = (0, 1, 2)


def read_runs(folder):
    """(T, pairs, variant, seed) -> (recall in %, step of the best evaluation), highest cap kept."""
    best = {}
    for path in glob.glob(f'{folder}/runs/*.json'):
        with open(path) as f:
            r = json.load(f)
        c = r['config']
        key = (c['length'], c['recall']['kvPairs'], c['variant'], c['seed'])
        rank = (c['steps'], r['finishedAt'])
        if key not in best or rank > best[key][0]:
            best[key] = (rank, 100 * r['finalMetric'], r['earlyStop']['bestStep'])
    return {k: (v[1], v[2]) for k, v in best.items()}


def holm(ps):
    """Holm's step-down adjustment (monotone, capped at 1)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [1.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def paired(runs, cells, a, b):
    """Per cell: mean ± std of a − b over the seeds both ran, paired t p, Holm p; then per seed."""
    rows = []
    for cell in cells:
        seeds = [s for s in SEEDS if (*cell, a, s) in runs and (*cell, b, s) in runs]
        d = np.array([runs[(*cell, a, s)][0] - runs[(*cell, b, s)][0] for s in seeds])
        p = stats.ttest_1samp(d, 0).pvalue if len(d) > 1 else float('nan')
        rows.append((cell, d, p))
    adjusted = holm([1.0 if math.isnan(p) else p for _, _, p in rows])
    print(f'{a} − {b}, pp (paired t; Holm over {len(rows)} cells):')
    for (cell, d, p), h in zip(rows, adjusted):
        sd = f' ± {d.std(ddof=1):.2f}' if len(d) > 1 else ''
        print(f'  T = {cell[0]}, {cell[1]} pairs: {d.mean():+.2f}{sd} (n = {len(d)}); p {p:.3f}; Holm {h:.3f}')
    per_seed = [np.mean([runs[(*c, a, s)][0] - runs[(*c, b, s)][0] for c in cells]) for s in SEEDS]
    t = stats.ttest_1samp(per_seed, 0)
    listed = ', '.join(f'{x:+.2f}' for x in per_seed)
    print(f'  each seed over the cells: {listed}; {np.mean(per_seed):+.2f} ± {np.std(per_seed, ddof=1):.2f}, p {t.pvalue:.3f}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('folder', help='a bench recall results folder (with runs/)')
    folder = parser.parse_args().folder
    runs = read_runs(folder)
    cells = sorted({k[:2] for k in runs})
    complete = all((*c, v, s) in runs for c in cells for v in VARIANTS for s in SEEDS)
    print(f'{len(runs)} runs in {len(cells)} cells' + ('' if complete else ' (some missing: tests use the seeds both ran)'))
    print('T | pairs | ' + ' | '.join(f'{v} s0 / s1 / s2' for v in VARIANTS))
    for cell in cells:
        cols = [' / '.join(f'{runs[(*cell, v, s)][0]:.2f}' if (*cell, v, s) in runs else '—' for s in SEEDS) for v in VARIANTS]
        print(f'{cell[0]} | {cell[1]} | ' + ' | '.join(cols))
    for a, b in (('boltzmann', 'softmax'), ('sigmoid', 'softmax'), ('boltzmann', 'sigmoid')):
        paired(runs, cells, a, b)
    low = {}
    for v in VARIANTS:
        mine = [(x[0], k) for k, x in runs.items() if k[2] == v]
        low[v] = (sum(1 for x, _ in mine if x < 99), len(mine))
        where = '; '.join(f'T = {k[0]}, {k[1]} pairs, seed {k[3]}: {x:.2f}' for x, k in sorted(mine) if x < 99)
        print(f'{v}: {low[v][0]} of {low[v][1]} runs below 99 %' + (f' ({where})' if where else ''))
    (sb, nb), (ss, ns) = low['boltzmann'], low['sigmoid']
    print(f'Fisher exact, sigmoid against boltzmann below 99 %: p {stats.fisher_exact([[ss, ns - ss], [sb, nb - sb]]).pvalue:.3f}')
    for v in ('boltzmann', 'sigmoid'):
        logs = np.array([[math.log2(runs[(*c, v, s)][1] / runs[(*c, 'softmax', s)][1]) for c in cells] for s in SEEDS])
        per_seed = logs.mean(axis=1)
        t = stats.ttest_1samp(per_seed, 0)
        seeds = ', '.join(f'{2 ** x:.2f}×' for x in per_seed)
        print(f'{v} best step over softmax\'s: {2 ** logs.mean():.2f}× (geometric mean; later in {(logs > 0).sum()} of {logs.size}); per seed {seeds}; p {t.pvalue:.3f}')


if __name__ == '__main__':
    main()
