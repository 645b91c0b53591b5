/*
 * A write killed between its temporary file and the rename leaves `.<name>.<pid>.<n>.<rand>.tmp`
 * behind (issue 38: 256 KiB of it in checkpoints/ after the grid completed). A grid that takes
 * the results folder's lock sweeps them: only the atomic writer's own temporary names, and only
 * those of a writer that is gone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import { progressRecorder, tinyRunFlags } from '../testing/fixtures.js';
import { capture } from '../testing/queueTestkit.js';

/** The pid of a process that has exited (a writer killed mid-write). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
  return child.pid!;
}

describe('stale temporary files of the atomic writer', () => {
  it('are swept from the results folder when a grid takes it; other files and live writers stay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-stale-tmp-'));
    mkdirSync(join(dir, 'checkpoints'), { recursive: true });
    const dead = deadPid();
    const stale = join(dir, 'checkpoints', `.some-run.json.${dead}.3.k2x9qa.tmp`);
    writeFileSync(stale, Buffer.alloc(256 * 1024));
    const staleTop = join(dir, `.summary.md.${dead}.1.a0b1c2.tmp`);
    writeFileSync(staleTop, 'half a summary');
    // Not the writer's names: a user's file, a name without the writer's fields.
    const mine = join(dir, 'checkpoints', 'notes.tmp');
    writeFileSync(mine, 'keep');
    const lookalike = join(dir, '.plan.json.tmp');
    writeFileSync(lookalike, 'keep');
    // A live writer's (this process stands in for it).
    const live = join(dir, 'checkpoints', `.other-run.json.${process.pid}.7.zz9abc.tmp`);
    writeFileSync(live, 'in flight');

    const args = ['shakespeare', '--lengths', '4', '--variants', 'softmax'];
    const io = { ...capture(), progress: progressRecorder().progress };
    expect(await main([...args, ...tinyRunFlags(2), '--results', dir], io)).toBe(0);

    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staleTop)).toBe(false);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(lookalike)).toBe(true);
    expect(existsSync(live)).toBe(true);
    expect(readdirSync(join(dir, 'checkpoints')).sort()).toEqual(
      [`.other-run.json.${process.pid}.7.zz9abc.tmp`, 'notes.tmp'].sort(),
    );
  });
});
