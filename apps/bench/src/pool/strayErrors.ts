/*
 * Errors that reach a bench process from outside every promise chain (a plugin's timer that
 * throws, a rejection nobody handles): caught and charged to the run they hit, never a raw stack
 * trace that kills the process. Used by in-process runs (`--workers 0`) and by worker processes.
 */
import { errorParts } from '../benchError.js';

/** An error that reached the process from outside every promise chain. */
export interface Stray {
  readonly error: unknown;
  readonly kind: 'uncaughtException' | 'unhandledRejection';
}

/**
 * Turns what would kill the process with a stack trace (a plugin's timer that throws, a rejection
 * nobody handles) into calls of `onStray`, until the returned function is called.
 */
export function catchStrays(onStray: (stray: Stray) => void): () => void {
  const thrown = (error: unknown): void => onStray({ error, kind: 'uncaughtException' });
  const rejected = (error: unknown): void => onStray({ error, kind: 'unhandledRejection' });
  process.on('uncaughtException', thrown);
  process.on('unhandledRejection', rejected);
  return () => {
    process.off('uncaughtException', thrown);
    process.off('unhandledRejection', rejected);
  };
}

/** What a stray error says, without the `error [CODE]: ` prefix. */
export function strayText(stray: Stray): string {
  const what = errorParts(stray.error).message;
  const how = stray.kind === 'uncaughtException' ? 'thrown' : 'a promise rejected';
  return `${what} (${how} outside the run's promise chain: a plugin's timer or callback, or a promise nobody awaited)`;
}
