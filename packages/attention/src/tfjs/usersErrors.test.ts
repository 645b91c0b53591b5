import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const here = fileURLToPath(new URL('..', import.meta.url));

describe("after initBackend, the user's own errors surface as theirs", () => {
  it("an unhandled rejection exits with Node's code 1 and the user's trace, not code 7 from the wasm glue", () => {
    const dir = mkdtempSync(join(tmpdir(), 'attention-users-errors-'));
    const script = join(dir, 'unhandled.mts');
    writeFileSync(
      script,
      `import { initBackend } from ${JSON.stringify(pathToFileURL(join(here, 'index.ts')).href)};
await initBackend('wasm', { log: () => undefined });
Promise.reject(new Error('the user\\'s own bug'));
`,
    );
    const tsx = pathToFileURL(require.resolve('tsx')).href;
    const run = spawnSync(
      process.execPath,
      ['--import', tsx, '--conditions=@boltzmann/source', script],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Error: the user's own bug");
    expect(run.stderr).toContain('unhandled.mts:3');
    expect(run.stderr).not.toContain('tfjs-backend-wasm.js');
  });
});
