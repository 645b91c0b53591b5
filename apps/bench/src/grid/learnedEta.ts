// The running grid's ETA, learned from its own first steps. The up-front estimate (eta.ts) is a
// cost model fitted on other days and loads, and was off by 2× on a long run (issue 43); once
// runs report steps, their measured seconds per step correct it: per run, per class of runs
// (variant and length), and over the whole grid, each shrunk towards the next broader one until
// it has steps enough to stand on its own.
import { SECONDS_PER_RUN, SECONDS_PER_RUN_SETUP, estimateRunSeconds, listSchedule } from './eta.js';
import type { PendingRun } from './types.js';
import type { RunConfig } from '../types.js';
import type { EtaEngine } from './eta.js';

/**
 * Measured steps that weigh as much as the broader estimate they are shrunk towards: a run's
 * own rate against its class's, a class's against the grid's, the grid's against the model's.
 */
export const PRIOR_STEPS = { run: 20, class: 20, grid: 10 } as const;

/** What the learner keeps of one run of the grid. */
interface Tracked {
  readonly config: RunConfig;
  readonly class: string;
  /** The cost model's seconds per step (evaluations included). */
  readonly prior: number;
  step: number;
  /** The first progress seen (clock ms, step), then the latest. */
  first?: { t: number; step: number };
  last?: { t: number; step: number };
  state: 'waiting' | 'running' | 'done';
}

/** A grid's learning ETA; feed it what the progress display sees. */
export interface LearnedEta {
  /** A run started (or resumed) at `step`. */
  start(id: string, step: number): void;
  /** A run reached `step` (read with the clock now). */
  observe(id: string, step: number): void;
  /** A run ended, finished or not. */
  end(id: string): void;
  /** Seconds left for the whole grid on its slots. */
  remainingSeconds(): number;
  /** Measured seconds per step over the model's, over the whole grid (1 before any step). */
  ratio(): number;
  /** Runs ended and runs in the grid. */
  counts(): { ended: number; total: number };
  /** `grid ETA 13s (steps 1.06× the estimate)` (a 4-run grid of 6 Dec 2026), `format` for the duration. */
  text(format: (seconds: number) => string): string;
}

/** The class a run's rate teaches about: its variant (column) and length. */
const classOf = (c: RunConfig): string => `${c.column}|T=${c.length}`;

/** The cost model's seconds per step of a run, its evaluations spread over its steps. */
function priorStepSeconds(c: RunConfig, engine?: EtaEngine): number {
  return Math.max(1e-6, (estimateRunSeconds(c, engine) - SECONDS_PER_RUN) / Math.max(1, c.steps));
}

/** A run's measured steps and log(measured / prior) seconds per step; null before two reports. */
function measured(t: Tracked): { n: number; logRatio: number } | null {
  if (!t.first || !t.last) return null;
  const n = t.last.step - t.first.step;
  const seconds = (t.last.t - t.first.t) / 1000;
  if (n <= 0 || seconds <= 0) return null;
  return { n, logRatio: Math.log(seconds / (n * t.prior)) };
}

/** `(Σ n·x + k·prior) / (Σ n + k)`: the measurements' mean shrunk towards `prior` by `k` steps. */
function shrink(points: readonly { n: number; logRatio: number }[], prior: number, k: number) {
  const n = points.reduce((a, p) => a + p.n, 0);
  return (points.reduce((a, p) => a + p.n * p.logRatio, 0) + k * prior) / (n + k);
}

/**
 * A learning ETA for a grid's pending runs on `slots` processes. Before any step it is the cost
 * model's; each run's measured rate then corrects, in log space, its own remaining steps, the
 * runs of its class (variant and length) not started yet, and through the grid-wide ratio every
 * other run.
 *
 * @param now the clock, in ms (a fake one in tests).
 * @example
 * const eta = learnedEta(grid.pending, 2);
 * eta.start(id, 0); eta.observe(id, 50); eta.text(formatDuration); // 'grid ETA …s (steps …× the estimate)'
 */
export function learnedEta(
  pending: readonly PendingRun[],
  slots: number,
  engine?: EtaEngine,
  now: () => number = Date.now,
): LearnedEta {
  const runs = new Map<string, Tracked>();
  for (const r of pending)
    runs.set(r.id, {
      config: r.config,
      class: classOf(r.config),
      prior: priorStepSeconds(r.config, engine),
      step: r.startStep,
      state: 'waiting',
    });
  const all = () => [...runs.values()];
  const points = (list: readonly Tracked[]) =>
    list.map(measured).filter((m): m is NonNullable<typeof m> => m !== null);
  const gridLog = () => shrink(points(all()), 0, PRIOR_STEPS.grid);
  const classLog = (k: string, g: number) =>
    shrink(points(all().filter((t) => t.class === k)), g, PRIOR_STEPS.class);
  return {
    start(id, step) {
      const t = runs.get(id);
      if (!t) return;
      t.state = 'running';
      t.step = step;
      t.first = undefined;
      t.last = undefined;
    },
    observe(id, step) {
      const t = runs.get(id);
      if (!t || t.state === 'done') return;
      t.state = 'running';
      t.step = step;
      const at = { t: now(), step };
      t.first ??= at;
      t.last = at;
    },
    end(id) {
      const t = runs.get(id);
      if (t) t.state = 'done';
    },
    remainingSeconds() {
      const g = gridLog();
      const classes = new Map<string, number>();
      const secondsLeft = (t: Tracked): number => {
        const c = classes.get(t.class) ?? classLog(t.class, g);
        classes.set(t.class, c);
        const own = measured(t);
        const log = own ? shrink([own], c, PRIOR_STEPS.run) : c;
        return Math.max(0, t.config.steps - t.step) * t.prior * Math.exp(log);
      };
      const running = all().filter((t) => t.state === 'running');
      const waiting = all()
        .filter((t) => t.state === 'waiting')
        .map((t) => SECONDS_PER_RUN_SETUP + SECONDS_PER_RUN + secondsLeft(t))
        .sort((a, b) => b - a);
      const busy = running.map(secondsLeft);
      while (busy.length < slots) busy.push(0);
      return waiting.length + running.length === 0 ? 0 : listSchedule(waiting, busy);
    },
    ratio: () => Math.exp(gridLog()),
    counts: () => ({ ended: all().filter((t) => t.state === 'done').length, total: runs.size }),
    text(format) {
      const learned = points(all()).length > 0;
      const ratio = this.ratio();
      return `grid ETA ${format(this.remainingSeconds())}${learned ? ` (steps ${ratio.toFixed(2)}× the estimate)` : ''}`;
    },
  };
}
