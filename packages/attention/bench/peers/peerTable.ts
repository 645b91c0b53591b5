// Pure helpers of scripts/benchPeers.ts: read the figures its child processes print, and lay
// out the table. No I/O here, so a test can check them without Python or a benchmark run.

/** One workload measured here and (if the peer ran) by its peer. */
export interface PeerRow {
  readonly workload: string;
  /**
   * The unit of `here` and `peer`: rates are better high, times better low (`s`: a whole
   * process, spawn to exit).
   */
  readonly unit: 'steps/s' | 'GFLOP/s' | 'ms/iteration' | 's';
  readonly here: number | undefined;
  readonly peer: number | undefined;
  /** Who the peer is, e.g. `PyTorch twin, 1 thread`. */
  readonly peerName: string;
  /** What ran here, e.g. `engine, 1 thread` (default `tfjs-wasm`). */
  readonly hereName?: string;
  /** The goal: the least speed ratio (here's speed over the peer's) that meets it. */
  readonly goal?: number;
  /** The goal cell of a row without a goal, e.g. `wasm (fallback)` (a goal takes precedence). */
  readonly goalNote?: string;
  /**
   * Why the peer's figure is no fair measure (`reference BLAS`): the table then prints both
   * figures marked so and no ratio.
   */
  readonly invalid?: string | undefined;
  /** Each round's ratio, when rounds were combined ({@link combineRounds}); the row's is their median. */
  readonly rounds?: readonly number[];
}

/** One variant's JSON line of `scripts/benchEngine.ts --json`. */
export interface BenchEngineFigure {
  readonly model: string;
  readonly variant: string;
  readonly threads: number;
  readonly msPerStep: number;
  /** The mean of the same steps (absent in older lines): what a run's step seconds average. */
  readonly meanMsPerStep?: number;
  readonly stepsPerSecond: number;
  /** On one thread: the step's matrix work (GFLOP), the GEMMs' and everything else's ms, the peak beside them. */
  readonly matrixGflop?: number;
  readonly gemmMs?: number;
  readonly otherMs?: number;
  readonly peakGflops?: number;
  /** On one thread, with the engine's transfer kernels: their ms and GFLOP per step. */
  readonly transferMs?: number;
  readonly transferGflop?: number;
  /** The peak's name: `native avx512 FMA` or `wasm f32x4` (absent in older lines: wasm f32x4). */
  readonly peakName?: string;
  /** The engine's backend (`native`, `wasm`) and its ISA (`avx512`, `f32x4`), as the engine reports. */
  readonly backend?: string;
  readonly isa?: string;
}

/** The JSON lines of a `scripts/benchEngine.ts --json` run (other lines ignored). */
export function parseBenchEngine(text: string): BenchEngineFigure[] {
  const out: BenchEngineFigure[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const v = JSON.parse(line) as Partial<BenchEngineFigure>;
      if (
        typeof v.variant === 'string' &&
        Number.isFinite(v.msPerStep) &&
        Number.isFinite(v.stepsPerSecond)
      )
        out.push(v as BenchEngineFigure);
    } catch {}
  }
  return out;
}

/** One variant's line of `scripts/benchTraining.ts`: its median step. */
export interface BenchTrainingFigure {
  readonly variant: string;
  readonly stepsPerSecond: number;
  readonly msPerStep: number;
}

/**
 * The per-variant figures of a `scripts/benchTraining.ts` run, read from lines such as
 * `softmax: 32.7 steps/s (median 30.6 ms/step over 40); …` or
 * `boltzmann (exact, 1 thread): 31.2 steps/s (median 32.0 ms/step over 40); …`.
 */
export function parseBenchTraining(text: string): BenchTrainingFigure[] {
  const out: BenchTrainingFigure[] = [];
  const line = /^(\w+)(?: \([^)]*\))?: ([\d.]+) steps\/s \(median ([\d.]+) ms\/step/;
  for (const raw of text.split('\n')) {
    const m = line.exec(raw.trim());
    if (m) out.push({ variant: m[1]!, stepsPerSecond: Number(m[2]), msPerStep: Number(m[3]) });
  }
  return out;
}

/** The JSON line the PyTorch twin (`bench/peers/paper_twin.py`) prints. */
export interface TwinFigure {
  readonly variant: string;
  readonly threads: number;
  readonly msPerStep: number;
  readonly stepsPerSecond: number;
  readonly torch: string;
  readonly blas: readonly string[];
}

/** The twin's figure: the last line of its output that parses as its JSON object. */
export function parseTwin(text: string): TwinFigure | undefined {
  const lines = text.trim().split('\n').reverse();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      const v = JSON.parse(line) as Partial<TwinFigure> & { peer?: string };
      if (v.peer === 'pytorch-twin' && typeof v.stepsPerSecond === 'number') return v as TwinFigure;
    } catch {
      // not the twin's line
    }
  }
  return undefined;
}

/**
 * nanoGPT's milliseconds per iteration: the median of the `iter N: loss …, time X ms` lines of
 * its train.py, skipping the first `settle` iterations (iteration 0 includes the first
 * evaluation; nanoGPT itself lets five settle before its MFU figure).
 */
export function parseNanoGptIterations(text: string, settle = 5): number | undefined {
  const times: number[] = [];
  for (const m of text.matchAll(/^iter (\d+): loss [-\d.naif]+, time ([\d.]+)ms/gm)) {
    if (Number(m[1]) >= settle) times.push(Number(m[2]));
  }
  return times.length === 0 ? undefined : median(times);
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * here ÷ peer as a speed ratio (> 1: we are faster): rates divide, times divide the other way.
 * A combined row's ratio is the median of its rounds' (each measured side by side); an invalid
 * row has none.
 */
export function speedRatio(row: PeerRow): number | undefined {
  if (row.invalid !== undefined) return undefined;
  if (row.rounds !== undefined && row.rounds.length > 0) return median(row.rounds);
  if (row.here === undefined || row.peer === undefined || row.here <= 0 || row.peer <= 0) {
    return undefined;
  }
  return row.unit === 'steps/s' || row.unit === 'GFLOP/s'
    ? row.here / row.peer
    : row.peer / row.here;
}

const figure = (x: number | undefined, unit: string): string =>
  x === undefined ? '—' : `${x >= 100 ? x.toFixed(0) : x.toFixed(1)} ${unit}`;

/** A goal's cell: the least ratio, and whether the row meets it. */
function goalCell(row: PeerRow, ratio: number | undefined): string {
  if (row.goal === undefined) return row.goalNote ?? '';
  const verdict = ratio === undefined ? 'not measured' : ratio >= row.goal ? 'met' : 'missed';
  return `≥ ${row.goal.toFixed(2)}×: ${verdict}`;
}

/** The table as Markdown: workload, here, peer, ratio (here's speed over the peer's), goal. */
export function formatPeerTable(rows: readonly PeerRow[]): string {
  const lines = ['| workload | here | peer | ratio | goal |', '|---|---|---|---|---|'];
  for (const row of rows) {
    const ratio = speedRatio(row);
    const here = `${figure(row.here, row.unit)} (${row.hereName ?? 'tfjs-wasm'})`;
    const invalid = row.invalid === undefined ? '' : `; INVALID: ${row.invalid}`;
    const peer =
      row.peer === undefined
        ? '— (not run)'
        : `${figure(row.peer, row.unit)} (${row.peerName}${invalid})`;
    const spread =
      row.rounds !== undefined && row.rounds.length > 1
        ? ` (${Math.min(...row.rounds).toFixed(2)}–${Math.max(...row.rounds).toFixed(2)} over ${row.rounds.length} rounds)`
        : '';
    const shown =
      ratio !== undefined ? `${ratio.toFixed(2)}×${spread}` : row.invalid ? '— (invalid)' : '—';
    lines.push(`| ${row.workload} | ${here} | ${peer} | ${shown} | ${goalCell(row, ratio)} |`);
  }
  return lines.join('\n');
}

/**
 * Rounds of the same rows combined: each row's figures are the medians of its rounds', and its
 * ratio the median of the rounds' ratios (`rounds`). Rows are matched by position and workload.
 */
export function combineRounds(rounds: readonly (readonly PeerRow[])[]): PeerRow[] {
  return (rounds[0] ?? []).map((row, i) => {
    const same = rounds
      .map((r) => r[i])
      .filter((r): r is PeerRow => r !== undefined && r.workload === row.workload);
    const mid = (key: 'here' | 'peer') => {
      const xs = same.map((r) => r[key]).filter((x): x is number => x !== undefined);
      return xs.length === 0 ? undefined : median(xs);
    };
    const ratios = same.map(speedRatio).filter((x): x is number => x !== undefined);
    return { ...row, here: mid('here'), peer: mid('peer'), rounds: ratios };
  });
}

/** The load average as the README writes it: `0.75, 1.39, 2.31` (1, 5 and 15 minutes). */
export function formatLoad(load: readonly number[]): string {
  return load.map((x) => x.toFixed(2)).join(', ');
}
