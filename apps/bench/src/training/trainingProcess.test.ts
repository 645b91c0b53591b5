import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SEMI_SPACE_MB, trainingExecArgv } from './trainingProcess.js';

describe('trainingExecArgv', () => {
  it('should start Node with tsx, the source condition and a 64 MiB semi-space, flags Node accepts', () => {
    const argv = trainingExecArgv();
    expect(argv).toContain('--conditions=@boltzmann/source');
    expect(argv).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
    // A Node started with these flags runs TypeScript and sees them (an unknown flag would exit 9).
    const out = execFileSync(
      process.execPath,
      [...argv, '--input-type=module', '-e', 'console.log(process.execArgv.join(" "))'],
      { encoding: 'utf8' },
    );
    expect(out).toContain('--max-semi-space-size=64');
  });
});
