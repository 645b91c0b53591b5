import { nodeBuiltin } from '@boltzmann/ising-core/internal';
import { DatasetError } from '../errors.js';

/** The Node modules the file loaders use, reached lazily (no top-level Node import: the package bundles for browsers). */
export interface NodeModules {
  readonly fs: typeof import('node:fs');
  readonly path: typeof import('node:path');
  readonly os: typeof import('node:os');
  readonly crypto: typeof import('node:crypto');
}

let cached: NodeModules | undefined;

/**
 * Node's `fs`, `path`, `os` and `crypto` for the file loaders.
 *
 * @throws {DatasetError} DATASET_UNSUPPORTED outside Node (a browser): use `loadTinyShakespeareFrom` or `createCharCorpus` there.
 */
export function nodeModules(): NodeModules {
  if (cached !== undefined) return cached;
  const fs = nodeBuiltin<NodeModules['fs']>('node:fs');
  const path = nodeBuiltin<NodeModules['path']>('node:path');
  const os = nodeBuiltin<NodeModules['os']>('node:os');
  const crypto = nodeBuiltin<NodeModules['crypto']>('node:crypto');
  if (fs === undefined || path === undefined || os === undefined || crypto === undefined) {
    throw new DatasetError(
      'DATASET_UNSUPPORTED',
      'loading Tiny Shakespeare from files or the download cache needs Node.js; in a browser, use loadTinyShakespeareFrom({ url }) or ({ bytes }) (verified, nothing stored), or pass text you already have to createCharCorpus(text)',
    );
  }
  cached = { fs, path, os, crypto };
  return cached;
}
