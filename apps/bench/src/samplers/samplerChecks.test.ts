// The grid's sampler checks read what a plugin declares, never its name: a banded sampler (the
// transfer matrix, or any plugin declaring `capabilities.couplings`) takes only `--couplings banded:w`
// with w within its width option, and a run longer than a sampler's `maxSpins` is refused.
import {
  createSamplerRegistry,
  defineSamplerPlugin,
  tapSampler,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import type { SamplerCapabilities } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { expandGrid } from '../grid/expandGrid.js';
import type { RunConfig } from '../types.js';
import { checkSamplers } from './samplerChecks.js';

const bandedCapabilities: SamplerCapabilities = {
  exact: true,
  maxSpins: 16,
  async: false,
  deterministic: true,
  couplings: { form: 'banded', widthOption: 'band', defaultWidth: 2 },
};
/** A third-party plugin that declares banded couplings (its width option `band`, default 2). */
const bandedPlugin = defineSamplerPlugin<{ band?: number }, never, 'my-banded'>({
  name: 'my-banded',
  version: '1.0.0',
  capabilities: bandedCapabilities,
  create: () => ({ name: 'my-banded', capabilities: bandedCapabilities }) as never,
});
const registry = createSamplerRegistry()
  .register(tapSampler)
  .register(transferMatrixSampler)
  .register(bandedPlugin)
  .freeze();

/** The sampled runs of a one-seed boltzmann grid at T = 8 with these flags. */
function configs(...flags: string[]): RunConfig[] {
  const command = parseBenchArgs(
    ['shakespeare', '--variants', 'boltzmann', '--lengths', '8', ...flags],
    () => undefined,
  );
  return expandGrid(command!);
}

const check = (...flags: string[]) => checkSamplers(configs(...flags), registry, { secrets: {} });

describe('checkSamplers', () => {
  it('refuses a full or too wide J on the transfer matrix, which declares its band, and takes banded:w within it', async () => {
    await expect(check('--sampler', 'transfer-matrix')).rejects.toMatchObject({
      code: 'BENCH_INVALID_OPTION',
      message: expect.stringMatching(
        /^--sampler transfer-matrix is exact only for a banded J: pass --couplings banded:w with w ≤ its bandwidth 8 \(got --couplings full\); for a full J use tap$/,
      ),
    });
    await expect(
      check('--sampler', 'transfer-matrix', '--couplings', 'banded:9'),
    ).rejects.toMatchObject({ code: 'BENCH_INVALID_OPTION' });
    await expect(
      check('--sampler', 'transfer-matrix', '--couplings', 'banded:8'),
    ).resolves.toBeUndefined();
    const narrow = ['--sampler', 'transfer-matrix', '--sampler-options', '{"bandwidth":4}'];
    await expect(check(...narrow, '--couplings', 'banded:4')).resolves.toBeUndefined();
    await expect(check(...narrow, '--couplings', 'banded:5')).rejects.toMatchObject({
      message: expect.stringContaining('w ≤ its bandwidth 4 (got --couplings banded:5)'),
    });
  });

  it('holds any plugin to the band it declares, by its own width option', async () => {
    await expect(check('--sampler', 'my-banded', '--couplings', 'relative')).rejects.toMatchObject({
      code: 'BENCH_INVALID_OPTION',
      message: expect.stringContaining('--sampler my-banded is exact only for a banded J'),
    });
    await expect(
      check('--sampler', 'my-banded', '--couplings', 'banded:2'),
    ).resolves.toBeUndefined();
    await expect(
      check('--sampler', 'my-banded', '--couplings', 'banded:3', '--sampler-options', '{"band":3}'),
    ).resolves.toBeUndefined();
  });

  it('takes any J on a sampler that declares no constraint', async () => {
    await expect(check('--sampler', 'tap')).resolves.toBeUndefined();
  });

  it("refuses a run longer than its sampler's maxSpins, naming the samplers that take it", async () => {
    const runs = configs('--sampler', 'my-banded', '--couplings', 'banded:2').map((c) => ({
      ...c,
      length: 32,
    }));
    await expect(checkSamplers(runs, registry, { secrets: {} })).rejects.toMatchObject({
      code: 'BENCH_SAMPLER_TOO_SMALL',
      message: expect.stringContaining('samplers that take T = 32: tap, transfer-matrix'),
    });
  });
});
