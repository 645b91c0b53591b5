import { MultiBar, Presets } from 'cli-progress';
import type { SingleBar } from 'cli-progress';
import type { RunProgress } from './types.js';

/** Where the grid reports what its runs are doing. */
export interface ProgressDisplay {
  /** A run started (or resumed at `startStep`). */
  start(id: string, label: string, steps: number, startStep: number): void;
  update(progress: RunProgress): void;
  /** A run ended; `status` is shown once. */
  end(id: string, status: string): void;
  /** A message that must not be overdrawn by bars. */
  log(line: string): void;
  stop(): void;
}

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
): ProgressDisplay {
  const labels = new Map<string, { label: string; last: number }>();
  return {
    start(id, label, steps, startStep) {
      labels.set(id, { label, last: Date.now() });
      write(
        `start  ${label}${startStep > 0 ? ` (resuming at step ${startStep}/${steps})` : ` (${steps} steps)`}`,
      );
    },
    update(p) {
      const l = labels.get(p.id);
      if (!l || Date.now() - l.last < intervalMs) return;
      l.last = Date.now();
      write(
        `step   ${l.label} ${p.step}/${p.steps} loss ${p.loss.toFixed(4)} ${p.stepsPerSecond.toFixed(1)} steps/s ETA ${formatDuration(etaSeconds(p))}${convergenceText(p)}`,
      );
    },
    end(id, status) {
      write(`end    ${labels.get(id)?.label ?? id}: ${status}`);
      labels.delete(id);
    },
    log: write,
    stop() {},
  };
}

/** cli-progress bars, one per running run (TTY only). */
export function barProgress(): ProgressDisplay {
  const multi = new MultiBar(
    {
      format: '{label} |{bar}| {value}/{total} loss {loss} {sps} st/s ETA {etaText}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      barsize: 24,
      fps: 5,
    },
    Presets.shades_classic,
  );
  const bars = new Map<string, SingleBar>();
  const labels = new Map<string, string>();
  const label = (id: string): string => labels.get(id) ?? id;
  return {
    start(id, text, steps, startStep) {
      labels.set(id, text);
      bars.set(
        id,
        multi.create(steps, startStep, {
          label: text.padEnd(46).slice(0, 46),
          loss: '-',
          sps: '-',
          etaText: '?',
        }),
      );
    },
    update(p) {
      bars.get(p.id)?.update(p.step, {
        loss: p.loss.toFixed(4),
        sps: p.stepsPerSecond.toFixed(1),
        etaText: formatDuration(etaSeconds(p)),
      });
    },
    end(id, status) {
      const bar = bars.get(id);
      if (bar) {
        multi.remove(bar);
        bars.delete(id);
      }
      multi.log(`${label(id)}: ${status}\n`);
    },
    log(line) {
      multi.log(`${line}\n`);
    },
    stop() {
      multi.stop();
    },
  };
}
