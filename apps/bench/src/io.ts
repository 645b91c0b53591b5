// What every bench command shares with the CLI entry (main.ts), a leaf so that main can import the
// commands without the commands importing main: exit codes, the injectable I/O, and the shape
// of `main` itself for a command that runs other commands (long-context).
import type { GridOptions, ProgressDisplay } from './grid/types.js';

/** Exit codes of the bench. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** I/O of the bench's `main`, injectable for tests. */
export interface MainIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Raw text without a newline (`bench sample` streams characters here); default `process.stdout.write`. */
  readonly write?: (text: string) => void;
  readonly signal?: AbortSignal;
  readonly progress?: ProgressDisplay;
  /** Told each grid's plan before it runs (see `GridOptions.onPlan`). */
  readonly onPlan?: GridOptions['onPlan'];
}

/** The bench CLI as a function (`main`), handed to a command that runs other bench commands. */
export type RunCli = (argv: readonly string[], io: MainIo) => Promise<number>;
