import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); never a downloaded browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const chromiumInstalled = existsSync(CHROMIUM_PATH);

/** Headless Chromium with the flags this machine needs (docs TOOLCHAIN.md). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
