import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { main } from '../cli/main.js';

describe('bench report', () => {
  it("should plot a DQA grid's fidelity sweep (fidelity.json) as the grid's own report does", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-dqa-'));
    mkdirSync(join(dir, 'runs'));
    const dqa = syntheticRecords(['dqa', '--lengths', '4', '--seeds', '0,1'], () => 0.8);
    for (const r of dqa) writeFileSync(join(dir, 'runs', `${r.id}.json`), JSON.stringify(r));
    const points = [
      { tau: 1, steps: 4, kl: 0.1, magnetizationError: 0.2 },
      { tau: 1, steps: 8, kl: 0.05, magnetizationError: 0.1 },
    ];
    writeFileSync(join(dir, 'fidelity.json'), JSON.stringify({ problems: 4, points }));
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => void out.push(l), err: (l: string) => void err.push(l) };
    expect(await main(['report', '--results', dir], io)).toBe(0);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('## DQA fidelity sweep');
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).fidelity).toEqual(points);
    expect(readFileSync(join(dir, 'runs.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(
      dqa.length,
    );
  });
});
