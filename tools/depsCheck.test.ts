import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `pnpm deps:check` (dependency-cruiser with .dependency-cruiser.cjs) run on small fixture trees:
 * the exact script of the root package.json and the real config, so the check cannot pass
 * silently (a config that matched nothing, a rule that never fires).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const script = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts['deps:check']!;
const dirs: string[] = [];
const entry = (name: string): string =>
  JSON.stringify({
    name,
    type: 'module',
    exports: { '.': { '@boltzmann/source': './src/index.ts' } },
  });

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * A tree with packages `@fx/a` and `@fx/b` (linked in node_modules as pnpm does, entry through the
 * source condition) and an app importing `@fx/a`, plus the given extra files; runs the check.
 */
function check(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'deps-check-'));
  dirs.push(dir);
  const tree: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true },
    }),
    'packages/a/package.json': entry('@fx/a'),
    'packages/a/src/index.ts': 'export const a = 1;\n',
    'packages/b/package.json': entry('@fx/b'),
    'packages/b/src/index.ts': "import { a } from '@fx/a';\nexport const b = a + 1;\n",
    'apps/app/src/main.ts': "import { a } from '@fx/a';\nexport const m = a;\n",
    'tools/tool.ts': 'export const t = 0;\n',
    ...files,
  };
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(join(dir, 'node_modules/@fx'), { recursive: true });
  for (const p of ['a', 'b'])
    symlinkSync(`../../packages/${p}`, join(dir, `node_modules/@fx/${p}`));
  copyFileSync(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  const r = spawnSync('sh', ['-c', script], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}` },
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('pnpm deps:check', () => {
  it('runs dependency-cruiser with the repository config', () => {
    expect(script).toMatch(/^depcruise .*--config \.dependency-cruiser\.cjs/);
  });

  it('passes on a tree without circles', () => {
    const r = check({
      'packages/a/src/x.ts': 'export const x = 1;\n',
      'packages/a/src/y.ts': "import { x } from './x.js';\nexport const y = x;\n",
    });
    expect(r.output).toMatch(/no dependency violations found/);
    expect(r.status).toBe(0);
  });

  it('fails on an import circle, type-only imports included', () => {
    const r = check({
      'packages/a/src/x.ts': "import type { Y } from './y.js';\nexport type X = { y?: Y };\n",
      'packages/a/src/y.ts': "import type { X } from './x.js';\nexport type Y = { x?: X };\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/no-circular: packages\/a\/src\/(x|y)\.ts/);
  });

  it('fails on a circle between packages through their names (entries resolve to src)', () => {
    const r = check({
      'packages/a/src/index.ts': "export { b } from '@fx/b';\nexport const a = 1;\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/no-circular: packages\/(a|b)\/src\/index\.ts/);
  });

  it('fails when a package imports an app', () => {
    const r = check({
      'packages/b/src/app.ts': "export { m } from '../../../apps/app/src/main.js';\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/no-package-imports-app: packages\/b\/src\/app\.ts/);
  });

  it("fails when a package reaches into another package's src internals", () => {
    const r = check({
      'packages/a/src/inner.ts': 'export const inner = 3;\n',
      'packages/b/src/deep.ts': "export { inner } from '../../a/src/inner.js';\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/no-package-internals: packages\/b\/src\/deep\.ts/);
  });

  it('fails when the attention engine reaches @tensorflow/tfjs, directly or through a file it imports, and when an attention room imports one above it', () => {
    const at = 'packages/attention/src';
    const attention = {
      'node_modules/@tensorflow/tfjs/package.json': JSON.stringify({
        name: '@tensorflow/tfjs',
        main: 'index.js',
      }),
      'node_modules/@tensorflow/tfjs/index.js': 'export const tensor = 1;\n',
      [`${at}/core/errors.ts`]: 'export const code = 1;\n',
      [`${at}/model/steps.ts`]:
        "import { code } from '../core/errors.js';\nexport const steps = code;\n",
      [`${at}/tfjs/layers.ts`]:
        "import { tensor } from '@tensorflow/tfjs';\nimport { steps } from '../model/steps.js';\nexport const layer = tensor + steps;\n",
      [`${at}/engine/engine.ts`]:
        "import { steps } from '../model/steps.js';\nexport const engine = steps;\n",
      [`${at}/engine/engine.test.ts`]:
        "import { tensor } from '@tensorflow/tfjs';\nimport { engine } from './engine.js';\nexport const t = tensor + engine;\n",
    };
    // The tfjs path imports tfjs, the engine's tests may, and each room reads the ones below.
    expect(check(attention).status).toBe(0);
    const r = check({
      ...attention,
      [`${at}/engine/direct.ts`]:
        "import { tensor } from '@tensorflow/tfjs';\nexport const d = tensor;\n",
      [`${at}/model/steps.ts`]:
        "import { tensor } from '@tensorflow/tfjs';\nexport const steps = tensor;\n",
      [`${at}/core/errors.ts`]:
        "import { steps } from '../model/steps.js';\nexport const code = steps;\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(
      /attention-engine-never-imports-tfjs: packages\/attention\/src\/engine\/direct\.ts/,
    );
    expect(r.output).toMatch(
      /attention-engine-never-imports-tfjs: packages\/attention\/src\/engine\/engine\.ts/,
    );
    expect(r.output).toMatch(/attention-floor-core: packages\/attention\/src\/core\/errors\.ts/);
  });

  it('fails when a bench folder imports a floor above its own, and lets a types leaf be read from any floor', () => {
    const bench = {
      'apps/bench/src/cli/main.ts': 'export const main = 1;\n',
      'apps/bench/src/grid/types.ts': 'export type Plan = { runs: number };\n',
      'apps/bench/src/report/table.ts':
        "import type { Plan } from '../grid/types.js';\nexport const t = (p: Plan) => p.runs;\n",
    };
    expect(check(bench).status).toBe(0);
    const r = check({
      ...bench,
      'apps/bench/src/grid/plan.ts':
        "import { main } from '../cli/main.js';\nexport const p = main;\n",
      'apps/bench/src/pool/run.ts': "import { q } from '../queue/q.js';\nexport const r = q;\n",
      'apps/bench/src/queue/q.ts': 'export const q = 2;\n',
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/bench-floor-grid: apps\/bench\/src\/grid\/plan\.ts/);
    expect(r.output).toMatch(/bench-executors-apart: apps\/bench\/src\/pool\/run\.ts/);
  });

  it('lets a types leaf above be read by a type-only import only: a value through it fails', () => {
    const bench = {
      'apps/bench/src/grid/types.ts':
        'export type Plan = { runs: number };\nexport const MAX = 4;\n',
      'apps/bench/src/report/table.ts':
        "import type { Plan } from '../grid/types.js';\nexport const t = (p: Plan) => p.runs;\n",
      'apps/bench/src/report/rows.ts':
        "import { type Plan } from '../grid/types.js';\nexport const rows = (p: Plan) => p.runs;\n",
      'apps/bench/src/io.ts':
        "import type { Plan } from './grid/types.js';\nexport const io = (p: Plan) => p.runs;\n",
    };
    expect(check(bench).status).toBe(0);
    const r = check({
      ...bench,
      'apps/bench/src/report/limit.ts':
        "import type { Plan } from '../grid/types.js';\nimport { MAX } from '../grid/types.js';\nexport const l = (p: Plan) => Math.min(p.runs, MAX);\n",
      'apps/bench/src/limits.ts': "export { MAX } from './grid/types.js';\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(
      /bench-floor-report-types-only: apps\/bench\/src\/report\/limit\.ts → apps\/bench\/src\/grid\/types\.ts/,
    );
    expect(r.output).toMatch(/bench-floor-root-leaves-types-only: apps\/bench\/src\/limits\.ts/);
    expect(r.output).not.toMatch(/report\/(table|rows)\.ts/);
  });

  it('fails when a quantum-adapters folder imports a provider beside or above it, and lets tests use the barrel', () => {
    const src = 'packages/quantum-adapters/src';
    const adapters = {
      [`${src}/shared/errors.ts`]: 'export const e = 0;\n',
      [`${src}/embedding/graph.ts`]:
        "import { e } from '../shared/errors.js';\nexport const g = e;\n",
      [`${src}/dwave/run.ts`]: "import { g } from '../embedding/graph.js';\nexport const d = g;\n",
      [`${src}/braket/run.ts`]: "import { e } from '../shared/errors.js';\nexport const b = e;\n",
      [`${src}/index.ts`]:
        "export { d } from './dwave/run.js';\nexport { b } from './braket/run.js';\n",
      [`${src}/dwave/run.test.ts`]: "import { d } from '../index.js';\nexport const t = d;\n",
    };
    expect(check(adapters).status).toBe(0);
    const r = check({
      ...adapters,
      [`${src}/ibm/run.ts`]: "import { b } from '../braket/run.js';\nexport const i = b;\n",
      [`${src}/shared/retry.ts`]: "import { d } from '../dwave/run.js';\nexport const s = d;\n",
      [`${src}/embedding/layout.ts`]:
        "import { b } from '../braket/run.js';\nexport const l = b;\n",
      [`${src}/braket/harness.ts`]: "import { d } from '../index.js';\nexport const h = d;\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(
      /adapters-providers-apart: packages\/quantum-adapters\/src\/ibm\/run\.ts/,
    );
    expect(r.output).toMatch(
      /adapters-shared-at-bottom: packages\/quantum-adapters\/src\/shared\/retry\.ts/,
    );
    expect(r.output).toMatch(
      /adapters-embedding-below-providers: packages\/quantum-adapters\/src\/embedding\/layout\.ts/,
    );
    expect(r.output).toMatch(
      /adapters-barrel-on-top: packages\/quantum-adapters\/src\/braket\/harness\.ts/,
    );
  });
});
