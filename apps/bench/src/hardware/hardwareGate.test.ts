// `--budget` and `--strict`: the estimate a hardware grid prints before anything is sent, and the
// refusals (a dry run says a real run would be refused; a real run is refused before it submits),
// and the shakespeare `hardware` preset, which fits IBM's Open Plan.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchError } from '../benchError.js';
import { main } from '../index.js';
import { budgetProblem, parseBudget } from './budget.js';

async function bench(...argv: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gate-'));
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, '--workers', '0', '--results', dir], {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
  });
  return { code, out, err };
}

const ibmGrid = ['shakespeare', '--preset', 'hardware', '--sampler', 'ibm'];

describe('--budget', () => {
  it.each([
    ['600s', { qpuSeconds: 600 }],
    ['10min', { qpuSeconds: 600 }],
    ['1.5h', { qpuSeconds: 5400 }],
    ['$25', { usd: 25 }],
    ['12.5usd', { usd: 12.5 }],
  ])('reads %s', (raw, want) => {
    expect(parseBudget(raw)).toEqual({ ...want, text: raw });
  });

  it.each(['10', '0s', 'ten minutes', '-5min', '$'])(
    'refuses %j with BENCH_INVALID_OPTION',
    (raw) => {
      expect(() => parseBudget(raw)).toThrow(
        expect.objectContaining({ code: 'BENCH_INVALID_OPTION' }),
      );
    },
  );

  it('holds an estimate to it in its own unit, and refuses one it cannot check', () => {
    expect(budgetProblem({ qpuSeconds: 599 }, parseBudget('10min'))).toBeUndefined();
    expect(budgetProblem({ qpuSeconds: 601 }, parseBudget('10min'))).toMatch(/over --budget 10min/);
    expect(budgetProblem({ usd: 30 }, parseBudget('$25'))).toMatch(/\$30\.00, is over/);
    expect(budgetProblem({ usd: 3 }, parseBudget('10min'))).toMatch(/no QPU time/);
  });
});

describe('the gate of a hardware grid', () => {
  it('the hardware preset fits the Open Plan on ibm_fez, its fidelity and cost in the dry run', async () => {
    const { code, out, err } = await bench(...ibmGrid, '--dry-run', '--budget', '10min');
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const grid = out.find((l) => l.startsWith('the whole grid'))!;
    // 61 jobs at IBM's documented 5 a minute: at least 12 minutes of submitting.
    expect(grid).toMatch(
      /61 IBM Sampler V2 jobs of ≤ 300 circuits, submitted at ≤ 5 a minute over ≥ 12 min: ≈/,
    );
    const seconds = Number(/≈ ([\d,.]+) QPU seconds/.exec(grid)![1]!.replaceAll(',', ''));
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThan(600);
    expect(out.some((l) => l.startsWith('expected circuit fidelity on ibm_fez'))).toBe(true);
  });

  it('a dry run over budget, or below the threshold with --strict, says a real run would be refused', async () => {
    const over = await bench(...ibmGrid, '--dry-run', '--budget', '60s');
    expect(over.code).toBe(1);
    expect(over.err.join('\n')).toMatch(
      /^error \[BENCH_OVER_BUDGET\]: the estimate, [\d,.]+ QPU seconds, is over --budget 60s .*a real run would be refused$/,
    );
    const strict = await bench(
      ...ibmGrid,
      '--sampler-options',
      '{"minFidelity":0.9}',
      '--dry-run',
      '--strict',
    );
    expect(strict.code).toBe(1);
    expect(strict.err.join('\n')).toMatch(
      /BENCH_LOW_FIDELITY.*4-spin circuits: expected fidelity 0\.\d+ at 1 step\(s\), below 0\.9/,
    );
    // Without --strict it is a warning.
    const warned = await bench(...ibmGrid, '--sampler-options', '{"minFidelity":0.9}', '--dry-run');
    expect(warned.code).toBe(0);
    expect(warned.out.some((l) => l.startsWith('warning: 4-spin circuits'))).toBe(true);
  });

  it('a real run prints the estimate and is refused over budget before anything is sent (no credentials are even read)', async () => {
    const { code, out, err } = await bench(...ibmGrid, '--budget', '60s');
    expect(out).toContain(
      'estimate before anything is sent (the first training batch written, no credentials used):',
    );
    expect(out.some((l) => l.startsWith('the whole grid'))).toBe(true);
    expect(code).not.toBe(0);
    expect(err.join('\n')).toMatch(/BENCH_OVER_BUDGET/);
    expect(err.join('\n')).not.toMatch(/IBM_CLOUD_API_KEY|ADAPTER_AUTH/);
  });

  it('a real run without an estimate to check is refused under --budget', async () => {
    const { code, err } = await bench(
      ...ibmGrid,
      '--sampler-options',
      '{"backend":"ibm_torino"}',
      '--budget',
      '10min',
    );
    expect(code).not.toBe(0);
    expect(err.join('\n')).toMatch(/BENCH_OVER_BUDGET.*no estimate to hold against --budget 10min/);
    expect(new BenchError('BENCH_OVER_BUDGET', 'x').code).toBe('BENCH_OVER_BUDGET');
  });
});
