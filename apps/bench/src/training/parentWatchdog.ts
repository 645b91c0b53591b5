/*
 * The one watchdog of the bench's child processes (the CLI under bin/bench.mjs, the pool's and
 * `bench sample`'s processes): no bench process outlives the process that started it. Without it,
 * a SIGKILLed launcher left its CLI training on (issue 38: a checkpoint advanced from 16000 to
 * 16850 after the kill), and a CLI that exited at a second Ctrl-C left its pool process spinning.
 */
import { Worker } from 'node:worker_threads';

/**
 * How long a process whose parent died may take to stop on its own (finish its step, write its
 * checkpoint, exit) before the watchdog kills it. A step of the bench's models takes well under a
 * second; a synchronous sampler that never returns would otherwise hold the process forever.
 */
export const PARENT_GONE_GRACE_MS = 3000;

/** How often the watchdog thread compares `process.ppid` with the parent's pid. */
const POLL_MS = 500;

// A thread of its own, because the main thread may be held for minutes by a synchronous sampler
// or an engine step: there neither 'disconnect' nor a timer would ever run. It tells the main
// thread (which reacts once free), then kills the process after the grace period. SIGKILL cannot
// corrupt a checkpoint: every results file is written to a temporary file and renamed.
const WATCHDOG = `
const { readFileSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
// A process's parent and process group from /proc (Linux); undefined where it is gone or unknown.
const statOf = (pid) => {
  try {
    const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
};
// With wholeCommand: the ancestors in this process group (npx, pnpm, nx, sh, the launcher: the
// command as typed), each with the parent it had. A SIGKILL of any of them orphans the one below,
// whose parent then changes. The group's top is left out: its parent is the shell, which may
// end under a nohup'ed command.
const chain = [];
const self = workerData.wholeCommand ? statOf(workerData.self) : undefined;
for (let pid = workerData.parent; self !== undefined && pid > 1 && chain.length < 64; ) {
  const s = statOf(pid);
  if (s === undefined || s.pgrp !== self.pgrp) break;
  chain.push([pid, s.ppid]);
  pid = s.ppid;
}
chain.pop();
const check = () => {
  if (process.ppid === workerData.parent && chain.every(([pid, ppid]) => statOf(pid)?.ppid === ppid))
    return;
  clearInterval(timer);
  parentPort.postMessage('gone');
  setTimeout(() => process.kill(workerData.self, 'SIGKILL'), workerData.graceMs);
};
const timer = setInterval(check, workerData.pollMs);
check();
`;

/** Options of {@link watchParent}. */
export interface WatchParentOptions {
  /** The parent's pid when known (a process that may have been orphaned before it got here). */
  readonly parent?: number;
  /** See {@link PARENT_GONE_GRACE_MS}. */
  readonly graceMs?: number;
  /**
   * Also end when any process of the command as typed dies: the ancestors in this process group
   * (`npx pnpm nx run bench:…` is a chain of eight), not only the parent. Linux only; elsewhere
   * the parent alone is watched.
   */
  readonly wholeCommand?: boolean;
}

/**
 * Ends this process with its parent: `onParentGone` is called once when the parent dies (the IPC
 * channel's 'disconnect', or `process.ppid` changing), to stop the work and exit; the process is
 * killed `graceMs` later if it has not exited by then. Never keeps the process alive.
 *
 * @param onParentGone asks the process's work to stop (as Ctrl-C does) and the process to exit.
 * @example
 * watchParent(() => controller.abort());
 */
export function watchParent(onParentGone: () => void, options: WatchParentOptions = {}): void {
  let called = false;
  const gone = (): void => {
    if (called) return;
    called = true;
    onParentGone();
  };
  // A forked child hears its parent's death at once, when its main thread is free.
  process.on('disconnect', gone);
  const watchdog = new Worker(WATCHDOG, {
    eval: true,
    // Plain Node: the thread needs neither tsx nor the source condition.
    execArgv: [],
    workerData: {
      parent: options.parent ?? process.ppid,
      self: process.pid,
      graceMs: options.graceMs ?? PARENT_GONE_GRACE_MS,
      pollMs: POLL_MS,
      wholeCommand: options.wholeCommand === true,
    },
  });
  watchdog.on('message', gone);
  watchdog.unref();
}
