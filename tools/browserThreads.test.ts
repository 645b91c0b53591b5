import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, watchedPage } from './browser/chromium.js';
import { serveStatic } from './browser/staticServer.js';
import type { StaticServer } from './browser/staticServer.js';

/**
 * ising-core's threads in a real browser (Debian's Chromium): esbuild bundles an app whose Web
 * Worker calls ising-core, plus `@boltzmann/ising-core/worker` as its own entry point (the
 * documented esbuild set-up), served on 127.0.0.1. Threaded answers must equal one-thread answers
 * to the bit, the workers must really get the tasks, and where threads cannot run (no
 * cross-origin isolation, the page's main thread) the package must say so once and still answer.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const missing = chromiumMissing();

// The computation both threads and the one-thread path run: exact and tap on a causal batch.
const COMPUTE = `
import { causalBatch, createRng, enableDebug, estimateExact, setWorkerFactory, startThreads, tapSampler, threadInfo } from '@boltzmann/ising-core';
export async function compute(bundledWorker, debug) {
  // Off Node, ising-core's warnings go to its debug namespace: printed (console.debug) only when asked.
  enableDebug(debug ? 'boltzmann:ising-core' : '');
  const warnings = [];
  const warn = console.warn, say = console.debug, log = console.log;
  const keep = (out) => (...args) => { warnings.push(args.join(' ')); out(...args); };
  console.warn = keep(warn); console.debug = keep(say); console.log = keep(log);
  let posts = 0;
  if (bundledWorker) setWorkerFactory(() => {
    const w = new Worker(new URL('./ising-worker.js', import.meta.url), { type: 'module' });
    const post = w.postMessage.bind(w);
    w.postMessage = (m, t) => { posts++; post(m, t); };
    return w;
  });
  const started = await startThreads(2);
  const rng = createRng(7);
  const batch = causalBatch(Float64Array.from({ length: 8 * 12 * 12 }, () => rng.normal()), Float64Array.from({ length: 12 * 12 }, () => rng.normal() * 0.4), { batch: 8, length: 12 });
  const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  const grad = Float64Array.from({ length: batch.fields.length }, (_, i) => Math.sin(i));
  const one = estimateExact(batch, { threads: 1 }), two = estimateExact(batch, { threads: 2 });
  const tap1 = tapSampler.create({ threads: 1 }).estimate(batch), tap2 = tapSampler.create({ threads: 2 }).estimate(batch);
  const exactSame = same(one.magnetization, two.magnetization) && same(one.vjp(grad).fields, two.vjp(grad).fields);
  const tapSame = same(tap1.magnetization, tap2.magnetization) && same(tap1.vjp(grad).fields, tap2.vjp(grad).fields);
  console.warn = warn; console.debug = say; console.log = log;
  return { started, after: threadInfo(), exactSame, tapSame, posts, warnings, isolated: globalThis.crossOriginIsolated === true };
}`;

const HOST_WORKER = `import { compute } from './compute.ts';
self.onmessage = async ({ data }) => self.postMessage(await compute(data.bundledWorker, data.debug));`;
const PAGE = `import { compute } from './compute.ts';
window.run = async (where, bundledWorker, debug) => {
  if (where === 'main') return compute(bundledWorker, debug);
  const host = new Worker(new URL('./host.js', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => { host.onmessage = (e) => resolve(e.data); host.onerror = (e) => reject(new Error(e.message)); host.postMessage({ bundledWorker, debug }); });
};`;

async function bundle(): Promise<Map<string, string>> {
  const virtual = { 'compute.ts': COMPUTE, 'host.ts': HOST_WORKER, 'page.ts': PAGE };
  const result = await build({
    entryPoints: {
      page: 'virtual:page.ts',
      host: 'virtual:host.ts',
      'ising-worker': '@boltzmann/ising-core/worker',
    },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outdir: '/out',
    write: false,
    logLevel: 'silent',
    absWorkingDir: root,
    conditions: ['@boltzmann/source'],
    plugins: [
      {
        name: 'virtual',
        setup(b) {
          b.onResolve({ filter: /^(virtual:|\.\/compute\.ts$)/ }, (a) => ({
            path: a.path.replace(/^virtual:|^\.\//, ''),
            namespace: 'virtual',
          }));
          b.onLoad({ filter: /.*/, namespace: 'virtual' }, (a) => ({
            contents: virtual[a.path as keyof typeof virtual],
            loader: 'ts',
            resolveDir: root,
          }));
        },
      },
    ],
  });
  const files = new Map(result.outputFiles.map((f) => [f.path.replace(/^\/out\//, ''), f.text]));
  files.set(
    'index.html',
    '<!doctype html><meta charset="utf-8"><title>threads</title><script type="module" src="./page.js"></script>',
  );
  return files;
}

type Outcome = {
  started: { live: number; available: boolean };
  after: { live: number; available: boolean };
  exactSame: boolean;
  tapSame: boolean;
  posts: number;
  warnings: string[];
  isolated: boolean;
};

describe.skipIf(missing !== undefined)(
  `ising-core threads in Chromium${missing === undefined ? '' : ` (skipped: ${missing})`}`,
  () => {
    let browser: Browser;
    let files: Map<string, string>;
    const servers: StaticServer[] = [];

    beforeAll(async () => {
      [browser, files] = await Promise.all([launchChromium(), bundle()]);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await Promise.all(servers.map((s) => s.close()));
    });

    async function run(
      where: 'worker' | 'main',
      options: { isolated: boolean; bundledWorker: boolean; debug?: boolean },
    ): Promise<{ outcome: Outcome; errors: string[] }> {
      const server = await serveStatic(files, { isolated: options.isolated });
      servers.push(server);
      const watched = await watchedPage(browser);
      await watched.page.goto(server.url);
      await watched.page.waitForFunction(
        () => typeof (globalThis as { run?: unknown }).run === 'function',
      );
      const outcome = await watched.page.evaluate(
        ([w, b, d]) =>
          (
            globalThis as unknown as { run(w: string, b: boolean, d: boolean): Promise<Outcome> }
          ).run(w, b, d),
        [where, options.bundledWorker, options.debug ?? true] as const,
      );
      await watched.page.context().close();
      expect(watched.offLoopback).toEqual([]);
      return { outcome, errors: watched.errors };
    }

    it('runs on a Web Worker of its own in an isolated page, bundled with esbuild, and answers as one thread does', async () => {
      const { outcome, errors } = await run('worker', { isolated: true, bundledWorker: true });
      expect(outcome.isolated).toBe(true);
      expect(outcome.started).toMatchObject({ live: 1, available: true });
      expect(outcome.after).toMatchObject({ live: 1, available: true });
      // The start-up flag plus at least one exact forward, one backward and the tap tasks.
      expect(outcome.posts).toBeGreaterThanOrEqual(5);
      expect(outcome.exactSame).toBe(true);
      expect(outcome.tapSame).toBe(true);
      expect(outcome.warnings).toEqual([]);
      expect(errors).toEqual([]);
    }, 120_000);

    it('without cross-origin isolation: no threads, one warning that says why, the same answers', async () => {
      const { outcome } = await run('worker', { isolated: false, bundledWorker: true });
      expect(outcome.isolated).toBe(false);
      expect(outcome.started).toMatchObject({ live: 0, available: false });
      expect(outcome.posts).toBe(0);
      expect(outcome.exactSame && outcome.tapSame).toBe(true);
      expect(
        outcome.warnings.filter((w) => w.includes('ISING_THREADS_UNAVAILABLE')).length,
      ).toBeLessThanOrEqual(1);
    }, 120_000);

    it("on the page's main thread (which may not block): one warning that says why, the same answers", async () => {
      const { outcome } = await run('main', { isolated: true, bundledWorker: true });
      expect(outcome.exactSame && outcome.tapSame).toBe(true);
      const said = outcome.warnings.filter((w) => w.includes('ISING_THREADS_UNAVAILABLE'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/may not block/);
    }, 120_000);

    it('prints nothing of it unless asked: the same main-thread case with the debug namespace off', async () => {
      const { outcome } = await run('main', { isolated: true, bundledWorker: true, debug: false });
      expect(outcome.exactSame && outcome.tapSame).toBe(true);
      expect(outcome.warnings).toEqual([]);
    }, 120_000);

    it('with no worker factory and no dist/ beside the bundle: the worker fails to load, one warning, the same answers', async () => {
      const { outcome } = await run('worker', { isolated: true, bundledWorker: false });
      expect(outcome.exactSame && outcome.tapSame).toBe(true);
      expect(outcome.started.live).toBe(0);
      expect(outcome.after.available).toBe(false);
      expect(outcome.warnings.filter((w) => w.includes('ISING_THREADS_UNAVAILABLE'))).toHaveLength(
        1,
      );
    }, 120_000);
  },
);
