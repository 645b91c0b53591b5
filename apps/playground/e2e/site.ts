import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import type { PreviewServer } from 'vite';

const appRoot = fileURLToPath(new URL('..', import.meta.url));
export const OUTPUT_DIR = fileURLToPath(new URL('../e2e-output/', import.meta.url));
const SITE_DIR = `${OUTPUT_DIR}site`;

/** The built site served by `vite preview` on 127.0.0.1 (a random free port). */
export interface ServedSite {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Builds the site with the project's own vite.config.ts (production mode, into
 * e2e-output/site so a developer's dist/ is left alone) and serves that folder.
 */
export async function buildAndServe(): Promise<ServedSite> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const configFile = `${appRoot}vite.config.ts`;
  // vitest sets NODE_ENV=test, which would make vite build a development bundle.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile,
      mode: 'production',
      logLevel: 'error',
      build: { outDir: SITE_DIR, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const server: PreviewServer = await preview({
    configFile,
    logLevel: 'error',
    build: { outDir: SITE_DIR },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const address = server.httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => server.close(),
  };
}
