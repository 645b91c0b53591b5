import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDebug, enableDebug } from './debugLog.js';
import { emitWarning } from './nodeBuiltin.js';

function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe('createDebug', () => {
  afterEach(() => {
    enableDebug(undefined);
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('prints nothing unless its namespace is enabled', () => {
    vi.stubEnv('DEBUG', '');
    const lines = captureStderr();
    const log = createDebug('boltzmann:test');
    log('hidden');
    expect(log.enabled).toBe(false);
    expect(lines).toEqual([]);
  });

  it('follows DEBUG: wildcards, lists and exclusions', () => {
    const lines = captureStderr();
    const a = createDebug('boltzmann:a');
    const b = createDebug('boltzmann:b');
    vi.stubEnv('DEBUG', 'boltzmann:*');
    a('one');
    vi.stubEnv('DEBUG', 'other, boltzmann:*,-boltzmann:b');
    a('two');
    b('never');
    expect(lines).toEqual(['boltzmann:a one\n', 'boltzmann:a two\n']);
    expect(b.namespace).toBe('boltzmann:b');
  });

  it('enableDebug overrides the environment, and undefined returns to it', () => {
    vi.stubEnv('DEBUG', 'boltzmann:*');
    const log = createDebug('boltzmann:x');
    enableDebug('');
    expect(log.enabled).toBe(false);
    enableDebug(undefined);
    expect(log.enabled).toBe(true);
  });

  it('off Node: console.debug, enabled by localStorage.debug', () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    vi.stubGlobal('process', undefined);
    const log = createDebug('boltzmann:web');
    log('quiet');
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => (k === 'debug' ? 'boltzmann:*' : null),
    });
    log('shown');
    expect(debug.mock.calls).toEqual([['boltzmann:web shown']]);
  });

  it('emitWarning off Node goes through the logger, never console.warn', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    vi.stubGlobal('process', undefined);
    emitWarning('threads unavailable', 'ISING_X');
    expect(warn).not.toHaveBeenCalled();
    expect(debug).not.toHaveBeenCalled();
    enableDebug('boltzmann:ising-core');
    emitWarning('threads unavailable', 'ISING_X');
    expect(debug.mock.calls).toEqual([
      ['boltzmann:ising-core IsingWarning [ISING_X]: threads unavailable'],
    ]);
  });
});
