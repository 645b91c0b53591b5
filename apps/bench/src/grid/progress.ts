import { MultiBar } from 'cli-progress';
import type { SingleBar } from 'cli-progress';
import type { RunProgress } from '../types.js';
import { learnedEta } from './learnedEta.js';
import type { LearnedEta } from './learnedEta.js';
import type { ProgressDisplay } from './types.js';

export type { ProgressDisplay } from './types.js';

/** Seconds as `1h02m`, `3m05s` or `42s`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s >= 3600)
    return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

function etaSeconds(p: RunProgress): number {
  return p.stepsPerSecond > 0 ? (p.steps - p.step) / p.stepsPerSecond : Number.NaN;
}

/** The fixed-point figures of a step, when the sampler reports them: ` fixed point 0/768 missed, ≤ 41 it, res 3e-11`. */
function convergenceText(p: RunProgress): string {
  const c = p.convergence;
  return c === undefined
    ? ''
    : ` fixed point ${c.missed}/${c.problems} missed, ≤ ${c.maxIterations} it, res ${c.maxResidual.toExponential(0)}`;
}

/**
 * Plain periodic log lines (CI, pipes): one line per run at most every `intervalMs`, plus
 * its start and end.
 *
 * @param write sink for lines (default stdout).
 * @param intervalMs minimum time between two lines of one run.
 */
export function plainProgress(
  write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  intervalMs = 10_000,
  now: () => number = Date.now,
): ProgressDisplay {
  const labels = new Map<string, { label: string; last: number }>();
  let eta: LearnedEta | undefined;
  return {
    plan(pending, slots, engine) {
      eta = learnedEta(pending, slots, engine, now);
    },
    start(id, label, steps, startStep, detail) {
      eta?.start(id, startStep);
      labels.set(id, { label, last: now() });
      write(
        `start  ${label}${startStep > 0 ? ` (resuming at step ${startStep}/${steps})` : ` (${steps} steps)`}${detail ? ` · ${detail}` : ''}`,
      );
    },
    update(p) {
      eta?.observe(p.id, p.step);
      const l = labels.get(p.id);
      if (!l || now() - l.last < intervalMs) return;
      l.last = now();
      const grid = eta ? ` · ${eta.text(formatDuration)}` : '';
      write(
        `step   ${l.label} ${p.step}/${p.steps} loss ${p.loss.toFixed(4)} ${p.stepsPerSecond.toFixed(1)} steps/s ETA ${formatDuration(etaSeconds(p))}${convergenceText(p)}${grid}`,
      );
    },
    end(id, status) {
      eta?.end(id);
      write(`end    ${labels.get(id)?.label ?? id}: ${status}`);
      labels.delete(id);
    },
    log: write,
    stop() {},
  };
}

/** The narrowest terminal that gets bars; a narrower one (or one of unknown width) gets plain lines. */
export const MIN_BAR_COLUMNS = 60;
const LABEL_MAX = 46;
const LABEL_MIN = 12;
const BAR_MAX = 24;
const BAR_MIN = 8;
/** Erase the whole line: a log line written over a bar must not keep the bar's tail. */
const ERASE_LINE = '\x1b[2K';

/** The terminal a display draws on: stdout, or a fake one in tests. */
export interface TerminalStream {
  write(text: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Splits a line into lines of at most `width` characters, at spaces where it can; continuation
 * lines are indented by two spaces.
 */
export function wrapLine(line: string, width: number): string[] {
  const lines: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > width / 3 ? space : width;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = `  ${rest.slice(cut).trimStart()}`;
  }
  lines.push(rest);
  return lines;
}

/** A run label cut to `width`: the task word goes first, then the middle (`…`). */
function fitLabel(label: string, width: number): string {
  if (label.length <= width) return label;
  const words = label.split(' ');
  const rest = words.length > 2 ? words.slice(1).join(' ') : label;
  if (rest.length <= width) return rest;
  const head = Math.ceil((width - 1) / 2);
  return `${rest.slice(0, head)}…${rest.slice(rest.length - (width - 1 - head))}`;
}

interface BarPayload {
  /** The grid's line (its runs and learning ETA) rather than a run's bar. */
  grid?: string;
  label: string;
  /** The longest label of the grid so far (bars line up). */
  labelWidth: number;
  loss: string;
  sps: string;
  etaText: string;
}

/**
 * One bar line that fits `columns` (one column is left free, so no terminal wraps it): the bar
 * graphic shrinks and then goes first, then the label is shortened, then the steps/s; the count,
 * loss and ETA stay.
 */
export function barLine(columns: number, value: number, total: number, p: BarPayload): string {
  const max = columns - 1;
  if (p.grid !== undefined) return `${value}/${total} runs ended · ${p.grid}`.slice(0, max);
  const count = ` ${String(value).padStart(String(total).length)}/${total}`;
  const tail = `${count} loss ${p.loss} ${p.sps} st/s ETA ${p.etaText}`;
  const labelWidth = Math.min(LABEL_MAX, Math.max(p.labelWidth, p.label.length));
  const barRoom = max - tail.length - labelWidth - 3;
  if (barRoom >= BAR_MIN) {
    const size = Math.min(BAR_MAX, barRoom);
    const done = total > 0 ? Math.round((size * Math.min(value, total)) / total) : 0;
    const label = fitLabel(p.label, labelWidth).padEnd(labelWidth);
    return `${label} |${'\u2588'.repeat(done)}${'\u2591'.repeat(size - done)}|${tail}`;
  }
  for (const t of [tail, `${count} loss ${p.loss} ETA ${p.etaText}`]) {
    const room = Math.min(labelWidth, max - t.length);
    if (room >= LABEL_MIN) return `${fitLabel(p.label, room).padEnd(room)}${t}`;
  }
  return `${fitLabel(p.label, LABEL_MIN)}${count} loss ${p.loss} ETA ${p.etaText}`.slice(0, max);
}

/** The grid's line above the bars: runs ended and the learning ETA, from `plan` on. */
function gridLine(multi: MultiBar, now: () => number) {
  let eta: LearnedEta | undefined;
  let bar: SingleBar | undefined;
  const payload = (grid: string): BarPayload => ({
    grid,
    label: 'grid',
    labelWidth: 0,
    loss: '',
    sps: '',
    etaText: '',
  });
  const show = (): void => {
    if (eta && bar) bar.update(eta.counts().ended, payload(eta.text(formatDuration)));
  };
  const plan: NonNullable<ProgressDisplay['plan']> = (pending, slots, engine) => {
    eta = learnedEta(pending, slots, engine, now);
    bar = multi.create(pending.length, 0, payload(''));
    show();
  };
  return { plan, show, eta: () => eta };
}

/**
 * cli-progress bars, one per running run, fitted to the terminal's width. A terminal narrower
 * than {@link MIN_BAR_COLUMNS}, or one whose width is unknown, gets plain lines instead.
 * A run's result line is printed above the bars and survives `stop()`.
 *
 * @param stream the terminal (default stdout).
 */
export function barProgress(
  stream: TerminalStream = process.stdout as TerminalStream,
  now: () => number = Date.now,
): ProgressDisplay {
  const columns = stream.columns ?? 0;
  if (!stream.isTTY || columns < MIN_BAR_COLUMNS) {
    const write = (line: string) => {
      const width = stream.columns ?? 0;
      for (const l of width > 0 ? wrapLine(line, width - 1) : [line]) stream.write(`${l}\n`);
    };
    return plainProgress(write, undefined, now);
  }
  const multi = new MultiBar({
    format: (_options, params, payload: BarPayload) =>
      barLine(stream.columns ?? params.maxWidth, params.value, params.total, payload),
    hideCursor: true,
    clearOnComplete: false,
    stopOnComplete: false,
    fps: 5,
    stream: stream as unknown as NodeJS.WritableStream,
  });
  const bars = new Map<string, SingleBar>();
  const labels = new Map<string, string>();
  let labelWidth = 0;
  let stopped = false;
  const label = (id: string): string => labels.get(id) ?? id;
  const log = (line: string): void => {
    const width = Math.max(20, stream.columns ?? columns) - 1;
    const text = wrapLine(line, width)
      .map((l) => `${ERASE_LINE}${l}\n`)
      .join('');
    // After stop() cli-progress no longer flushes its log buffer: write directly.
    if (stopped) stream.write(text);
    else multi.log(text);
  };
  const grid = gridLine(multi, now);
  return {
    plan: grid.plan,
    start(id, text, steps, startStep) {
      grid.eta()?.start(id, startStep);
      labels.set(id, text);
      labelWidth = Math.max(labelWidth, text.length);
      const payload: BarPayload = { label: text, labelWidth, loss: '-', sps: '-', etaText: '?' };
      bars.set(id, multi.create(steps, startStep, payload));
    },
    update(p) {
      grid.eta()?.observe(p.id, p.step);
      grid.show();
      bars.get(p.id)?.update(p.step, {
        labelWidth,
        loss: p.loss.toFixed(4),
        sps: p.stepsPerSecond.toFixed(1),
        etaText: formatDuration(etaSeconds(p)),
      });
    },
    end(id, status) {
      // The result line goes into the log buffer before the bar goes: remove() redraws, which
      // flushes the buffer, so the line is out even when this was the last bar.
      log(`${label(id)}: ${status}`);
      grid.eta()?.end(id);
      grid.show();
      const bar = bars.get(id);
      if (bar) {
        bars.delete(id);
        multi.remove(bar);
      }
    },
    log,
    stop() {
      if (stopped) return;
      stopped = true;
      // Flush what was logged since the last redraw (MultiBar.stop() drops its log buffer).
      multi.update();
      multi.stop();
    },
  };
}
