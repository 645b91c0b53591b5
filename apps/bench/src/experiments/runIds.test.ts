import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { parseBenchArgs } from '../cli/parseArgs.js';
import { expandGrid, runId, runLabel } from '../grid/expandGrid.js';

/**
 * The run ids and labels of every preset of every experiment, the long-context slices and a few
 * flag mixes, as the grid code gave them before the experiments got one module each
 * (runIds.fixture.json). A changed id would orphan committed results: this must never fail.
 */
const cases = JSON.parse(
  readFileSync(new URL('./runIds.fixture.json', import.meta.url), 'utf8'),
) as { argv: string[]; labels: string; ids: string[] }[];

const sha = (lines: readonly string[]): string =>
  createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);

describe('run ids of every experiment', () => {
  it('covers every preset of every task', () => {
    const presets = cases.filter((c) => c.argv[1] === '--preset').map((c) => c.argv.join(' '));
    expect(presets).toEqual(
      expect.arrayContaining([
        'shakespeare --preset small',
        'shakespeare --preset paper',
        'shakespeare --preset long',
        'brackets --preset small',
        'brackets --preset paper',
        'brackets --preset long',
        'dqa --preset small',
        'dqa --preset paper',
        'gpt --preset small',
        'gpt --preset baby',
        'gpt --preset long',
      ]),
    );
  });

  it.each(cases.map((c) => [c.argv.join(' '), c] as const))('%s', (_, c) => {
    const runs = expandGrid(parseBenchArgs(c.argv, () => undefined)!);
    expect(runs.map(runId)).toEqual(c.ids);
    expect(sha(runs.map(runLabel))).toBe(c.labels);
  });
});
