import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core, the repo's one way to run a test in a real browser
 * (never a downloaded browser: see docs/TOOLCHAIN.md). `.ci/run` installs it with apt.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why a browser test cannot run here (no Chromium), or `undefined`. In CI a missing browser is a failure, not a skip. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`browser tests must run in CI: ${reason}`);
  return reason;
}

/**
 * WebGL and WebGPU without a GPU: ANGLE on SwiftShader for WebGL 2, and WebGPU (Dawn) on its
 * SwiftShader Vulkan adapter, both software renderers that ship with Chromium.
 */
const GPU_FLAGS = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  '--enable-features=Vulkan',
];

/** Starts headless Chromium with the flags this machine needs; `gpu`: with software WebGL and WebGPU. */
export function launchChromium(options: { gpu?: boolean } = {}): Promise<Browser> {
  const args =
    options.gpu === true ? [...FLAGS.filter((f) => f !== '--disable-gpu'), ...GPU_FLAGS] : FLAGS;
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
}

/** A page plus what it said: console errors, uncaught errors, and requests it tried off loopback (aborted). */
export interface WatchedPage {
  readonly page: Page;
  readonly errors: string[];
  readonly warnings: string[];
  readonly offLoopback: string[];
}

/**
 * Opens a page of `viewport` size that may only reach 127.0.0.1 (anything else is aborted and
 * recorded, so a test never touches the network), and records console errors and warnings,
 * including those of its workers.
 */
export async function watchedPage(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const watched: WatchedPage = {
    page: await context.newPage(),
    errors: [],
    warnings: [],
    offLoopback: [],
  };
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:')
      return route.continue();
    watched.offLoopback.push(url.href);
    return route.abort();
  });
  const record = (type: string, text: string): void => {
    if (type === 'error') watched.errors.push(text);
    if (type === 'warning') watched.warnings.push(text);
  };
  watched.page.on('console', (m) => record(m.type(), m.text()));
  watched.page.on('pageerror', (e) => watched.errors.push(`${e.name}: ${e.message}`));
  watched.page.on('worker', (w) => w.on('console', (m) => record(m.type(), m.text())));
  return watched;
}
