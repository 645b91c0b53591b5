import { afterEach, describe, expect, it } from 'vitest';
import { MIN_BAR_COLUMNS, barLine, barProgress, wrapLine } from './progress.js';
import type { TerminalStream } from './progress.js';
import { syntheticRecords } from '../testing/fixtures.js';

/**
 * A fake terminal: keeps a screen of lines and interprets what cli-progress and readline write
 * (cursor moves, line and screen erases). It does not wrap: a line drawn past the width stays
 * long, so `widest` catches it.
 */
function fakeTerminal(columns: number): TerminalStream & { screen(): string[]; widest: number } {
  const screen: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = (): string[] => {
    while (screen.length <= row) screen.push([]);
    return screen[row]!;
  };
  const term = {
    isTTY: true,
    columns,
    widest: 0,
    write(text: string): boolean {
      for (let i = 0; i < text.length; i += 1) {
        const ch = text[i]!;
        if (ch === '\x1b') {
          const m = /^\[(\??)(\d*)(?:;(\d*))?([A-Za-z])/.exec(text.slice(i + 1));
          if (!m) throw new Error(`unknown escape at ${JSON.stringify(text.slice(i, i + 8))}`);
          i += m[0].length;
          if (m[1] === '?') continue; // cursor visibility, line wrapping
          const n = m[2] === '' ? 1 : Number(m[2]);
          const op = m[4];
          if (op === 'A') row = Math.max(0, row - n);
          else if (op === 'B') row += n;
          else if (op === 'C') col += n;
          else if (op === 'D') col = Math.max(0, col - n);
          else if (op === 'G') col = n - 1;
          else if (op === 'K') {
            const mode = m[2] === '' ? 0 : Number(m[2]);
            const l = line();
            if (mode === 0) l.length = Math.min(l.length, col);
            else if (mode === 2) l.length = 0;
            else for (let c = 0; c < Math.min(col + 1, l.length); c += 1) l[c] = ' ';
          } else if (op === 'J') {
            line().length = Math.min(line().length, col);
            screen.length = row + 1;
          } else throw new Error(`unhandled escape ${m[0]}`);
        } else if (ch === '\n') {
          row += 1;
          col = 0;
          line();
        } else if (ch === '\r') col = 0;
        else {
          const l = line();
          while (l.length < col) l.push(' ');
          l[col] = ch;
          col += 1;
          term.widest = Math.max(term.widest, col);
        }
      }
      return true;
    },
    screen: (): string[] => screen.map((l) => l.join('').trimEnd()),
  };
  return term;
}

const LONG = 'brackets/balanced boltzmann-exact T=16 d=64 noFFN s0';
const SHORT = 'shakespeare softmax T=4 d=64 s1';

let display: ReturnType<typeof barProgress> | undefined;
afterEach(() => {
  display?.stop(); // never leave cli-progress's redraw timer running
  display = undefined;
});

/** Two runs: both draw, the first ends while the second runs, then the second (last) ends. */
function drive(term: TerminalStream): { screenWhileRunning: string[] } {
  display = barProgress(term);
  display.start('a', LONG, 5000, 0);
  display.start('b', SHORT, 200, 0);
  display.update({ id: 'a', step: 1234, steps: 5000, loss: 1.23456, stepsPerSecond: 12.3 });
  display.update({ id: 'b', step: 150, steps: 200, loss: 2.5, stepsPerSecond: 4.2 });
  display.end('a', 'accuracy 0.9876 (1m40s)');
  const screenWhileRunning =
    'screen' in term ? (term as ReturnType<typeof fakeTerminal>).screen() : [];
  display.update({ id: 'b', step: 200, steps: 200, loss: 2.25, stepsPerSecond: 4.2 });
  display.end('b', 'perplexity 9.4877 (48s)');
  display.stop();
  return { screenWhileRunning };
}

describe('barProgress on a terminal', () => {
  it('on 80 columns: bars keep loss and ETA, every line fits, and the last result line stays', () => {
    const term = fakeTerminal(80);
    const { screenWhileRunning } = drive(term);
    const bar = screenWhileRunning.find((l) => l.includes('150/200'));
    expect(bar).toContain('loss 2.5000');
    expect(bar).toContain('ETA 12s');
    const screen = term.screen();
    const a = screen.indexOf(`${LONG}: accuracy 0.9876 (1m40s)`);
    const b = screen.indexOf(`${SHORT}: perplexity 9.4877 (48s)`);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(b).toBeGreaterThan(a);
    expect(term.widest).toBeLessThanOrEqual(80);
  });

  it('on 50 columns (narrower than the bars need): plain lines, wrapped, the last one present', () => {
    const term = fakeTerminal(50);
    drive(term);
    const screen = term.screen();
    expect(screen).toContain(`end    ${SHORT}:`);
    expect(screen).toContain('  perplexity 9.4877 (48s)');
    expect(term.widest).toBeLessThanOrEqual(50);
  });

  it('falls back to plain lines when the width is unknown', () => {
    const lines: string[] = [];
    const p = barProgress({ isTTY: true, write: (t) => lines.push(t) > 0 });
    p.start('a', SHORT, 10, 0);
    p.end('a', 'perplexity 9.0000 (1s)');
    p.stop();
    expect(lines).toEqual([
      `start  ${SHORT} (10 steps)\n`,
      `end    ${SHORT}: perplexity 9.0000 (1s)\n`,
    ]);
  });

  it('a line logged after stop() is still written', () => {
    const term = fakeTerminal(80);
    display = barProgress(term);
    display.start('a', SHORT, 10, 0);
    display.stop();
    display.log('stopping: workers are checkpointing their runs…');
    expect(term.screen()).toContain('stopping: workers are checkpointing their runs…');
  });
});

describe('the grid line', () => {
  it('stands above the bars with the runs ended and the learning ETA (a fake clock)', () => {
    const term = fakeTerminal(120);
    const runs = syntheticRecords(
      ['shakespeare', '--variants', 'softmax', '--lengths', '8,16', '--seeds', '0'],
      () => 5,
    );
    let now = 0;
    display = barProgress(term, () => now);
    display.plan!(
      runs.map((r) => ({ config: r.config, id: r.id, startStep: 0, doneFraction: 0 })),
      1,
    );
    display.start(runs[0]!.id, SHORT, 300, 0);
    for (let step = 1; step <= 100; step += 1) {
      now += 1000; // a second a step: far slower than the model's estimate
      display.update({ id: runs[0]!.id, step, steps: 300, loss: 2, stepsPerSecond: 1 });
    }
    display.end(runs[0]!.id, 'perplexity 9.0000 (1m40s)');
    const screen = term.screen();
    const grid = screen.findIndex((l) => l.startsWith('1/2 runs ended · grid ETA '));
    expect(grid, screen.join('\n')).toBeGreaterThanOrEqual(0);
    expect(screen[grid]).toMatch(/\(steps \d+\.\d\d× the estimate\)$/);
    display.stop();
  });
});

describe('barLine', () => {
  const payload = {
    label: LONG,
    labelWidth: LONG.length,
    loss: '1.2346',
    sps: '12.3',
    etaText: '1h02m',
  };

  it('fits every width from the narrowest bar terminal up, keeping the count, loss and ETA', () => {
    for (let columns = MIN_BAR_COLUMNS; columns <= 200; columns += 1) {
      const line = barLine(columns, 1234, 5000, payload);
      expect(line.length, `${columns} columns: ${line}`).toBeLessThan(columns);
      expect(line).toContain('1234/5000 loss 1.2346');
      expect(line).toContain('ETA 1h02m');
    }
  });

  it('drops the bar graphic before shortening the label', () => {
    const wide = barLine(120, 2500, 5000, payload);
    expect(wide).toMatch(/^boltzmann-exact T=16 d=64 noFFN s0 +\|█{12}░{12}\| 2500\/5000/);
    const at80 = barLine(80, 2500, 5000, payload);
    expect(at80).not.toContain('|');
    expect(at80).toContain('12.3 st/s');
    expect(at80.startsWith('boltzmann-exact T=16 d=64 noFFN s0 ')).toBe(true);
  });
});

describe('wrapLine', () => {
  it('breaks at spaces and indents continuations', () => {
    expect(wrapLine('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', '  cccc']);
    expect(wrapLine('short', 9)).toEqual(['short']);
    for (const l of wrapLine('x'.repeat(30), 9)) expect(l.length).toBeLessThanOrEqual(9);
  });
});
