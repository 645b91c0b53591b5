import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { kernelFiles } from '../../../../../../tools/wasm/buildWasm.mjs';
// @ts-expect-error -- a plain .mjs kernel registry without type declarations
import * as registry from './registry.mjs';

const files: { url: URL; text: string }[] = await kernelFiles(registry);

describe(`ising-core’s committed kernel text and modules (${registry.COMMAND})`, () => {
  for (const { url, text } of files)
    it(`${url.pathname.split('/kernels/wasm/')[1]} is current: regenerated, it is the same`, () => {
      expect(readFileSync(url, 'utf8')).toBe(text);
    });
});
