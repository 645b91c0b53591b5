import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { problem } from '../shared/testing/circuitProblems.js';
import { rejection } from '../shared/testing/rejection.js';
import { createIbmSampler, ibmSampler } from '../index.js';
import type { IbmSamplerOptions } from './ibmSamplerTypes.js';
import { samplerJobSettings } from './samplerJobOptions.js';
import { fake, samplerOptions, useFakeRuntime } from './testing/runtimeHarness.js';

useFakeRuntime();

/** Every job option, in the sampler's camelCase. */
const JOB_OPTIONS: IbmSamplerOptions = {
  dynamicalDecoupling: {
    enable: true,
    sequenceType: 'XpXm',
    extraSlackDistribution: 'edges',
    schedulingMethod: 'asap',
    skipResetQubits: true,
  },
  twirling: {
    enableGates: true,
    enableMeasure: false,
    numRandomizations: 'auto',
    shotsPerRandomization: 32,
    strategy: 'active-circuit',
  },
  maxExecutionTimeSeconds: 600,
  tags: ['run-7', 'boltzmann-attention', 'fez'],
};

/** Where IBM's docs put each of them in the `POST jobs` body (snake_case, params.options, top level). */
const expectDocumentedPlaces = (body: Record<string, unknown>) => {
  expect(body).toMatchObject({
    program_id: 'sampler',
    params: {
      version: '2',
      options: {
        dynamical_decoupling: {
          enable: true,
          sequence_type: 'XpXm',
          extra_slack_distribution: 'edges',
          scheduling_method: 'asap',
          skip_reset_qubits: true,
        },
        twirling: {
          enable_gates: true,
          enable_measure: false,
          num_randomizations: 'auto',
          shots_per_randomization: 32,
          strategy: 'active-circuit',
        },
      },
    },
    cost: 600,
    tags: ['boltzmann-attention', 'run-7', 'fez'],
  });
  expect(Object.keys(body.params as object).sort()).toEqual(['options', 'pubs', 'version']);
  expect(body).not.toHaveProperty('max_execution_time');
  expect(body).not.toHaveProperty('priority');
};

const invalid = (fragment: string) =>
  expect.objectContaining({
    code: 'ADAPTER_INVALID_ARGUMENT',
    message: expect.stringContaining(fragment),
  });

describe('ibm job options', () => {
  it('refuses bad types, unknown keys and values IBM does not allow, with ADAPTER_INVALID_ARGUMENT', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ dynamicalDecoupling: true }, 'dynamicalDecoupling must be an object, got true'],
      [{ dynamicalDecoupling: { enabled: true } }, 'ibm dynamicalDecoupling: unknown option'],
      [{ dynamicalDecoupling: { enable: 'yes' } }, 'dynamicalDecoupling.enable must be a boolean'],
      [
        { dynamicalDecoupling: { sequenceType: 'XY8' } },
        "dynamicalDecoupling.sequenceType must be one of 'XX', 'XpXm', 'XY4', got",
      ],
      [{ dynamicalDecoupling: { schedulingMethod: 'ALAP' } }, "'alap', 'asap'"],
      [{ dynamicalDecoupling: { sequence_type: 'XX' } }, 'known options: enable, sequenceType'],
      [{ twirling: [] }, 'twirling must be an object'],
      [{ twirling: { enableGates: 1 } }, 'twirling.enableGates must be a boolean'],
      [
        { twirling: { numRandomizations: 0 } },
        "twirling.numRandomizations must be an integer ≥ 1 or 'auto'",
      ],
      [{ twirling: { shotsPerRandomization: 2.5 } }, 'twirling.shotsPerRandomization'],
      [{ twirling: { strategy: 'none' } }, "'active', 'active-accum', 'active-circuit', 'all'"],
      [{ twirling: { enable_measure: true } }, 'ibm twirling: unknown option'],
      [{ maxExecutionTimeSeconds: 0 }, 'maxExecutionTimeSeconds must be a positive integer'],
      [{ maxExecutionTimeSeconds: 10_801 }, 'maxExecutionTimeSeconds must be at most 10800'],
      [{ maxExecutionTimeSeconds: '60' }, 'maxExecutionTimeSeconds'],
      [{ tags: 'run-7' }, 'tags must be an array of strings'],
      [{ tags: ['ok', 7] }, 'tags must be non-empty strings, got 7'],
      [{ tags: [' '] }, 'tags must be non-empty strings'],
      [{ maxJobsPerMinute: 0 }, 'maxJobsPerMinute must be a positive integer, got 0'],
      [{ maxJobsPerMinute: 2.5 }, 'maxJobsPerMinute'],
      [{ priority: 1 }, 'ibm: unknown option "priority"'],
    ];
    for (const [extra, fragment] of bad)
      expect(() => createIbmSampler(samplerOptions(extra as never)), fragment).toThrow(
        invalid(fragment),
      );
  });

  it('sends only what was given: the tag alone, no options, no cost by default', () => {
    expect(samplerJobSettings({})).toEqual({ tags: ['boltzmann-attention'] });
    expect(samplerJobSettings({ dynamicalDecoupling: {}, twirling: {} })).toEqual({
      tags: ['boltzmann-attention'],
    });
    expect(samplerJobSettings({ dynamicalDecoupling: { enable: false } }).options).toEqual({
      dynamical_decoupling: { enable: false },
    });
  });

  it('are described as data, with the documented rate limit and the absence of a priority field', () => {
    const spec = (name: string) => ibmSampler.options?.find((o) => o.name === name);
    for (const n of ['dynamicalDecoupling', 'twirling', 'maxExecutionTimeSeconds', 'tags'])
      expect(spec(n), n).toBeDefined();
    expect(spec('maxJobsPerMinute')).toMatchObject({ default: '5' });
    expect(spec('tags')?.doc).toMatch(/no job priority field/);
  });

  it('puts each option where the docs do, in the dry run’s job requests', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibm-dry-'));
    const sampler = createIbmSampler({
      dryRun: { dir },
      shots: 100,
      maxPubsPerJob: 1,
      ...JOB_OPTIONS,
    });
    await rejection(sampler.sample(problem(3, 4)));
    const job = JSON.parse(readFileSync(join(dir, 'ibm-0001', 'job-001-request.json'), 'utf8'));
    expectDocumentedPlaces(job.body);
  });

  it('puts each option where the docs do, in the jobs the fake Runtime receives', async () => {
    const sampler = createIbmSampler(samplerOptions({ shots: 10, ...JOB_OPTIONS }));
    await sampler.sample(problem(1, 2));
    const posts = fake.requests.filter((r) => r.method === 'POST' && /\/jobs$/.test(r.path));
    expect(posts).toHaveLength(1);
    expectDocumentedPlaces(JSON.parse(posts[0]!.body));
  });

  it('sends version "2" and the package tag even with no job option, dry or real', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibm-dry-'));
    await rejection(createIbmSampler({ dryRun: { dir }, shots: 10 }).sample(problem(2, 3)));
    const dry = JSON.parse(readFileSync(join(dir, 'ibm-0001', 'job-001-request.json'), 'utf8'));
    await createIbmSampler(samplerOptions({ shots: 10 })).sample(problem(1, 2));
    const real = JSON.parse(fake.requests.find((r) => /\/jobs$/.test(r.path))!.body);
    for (const body of [dry.body, real]) {
      expect(body.params.version).toBe('2');
      expect(body.params).not.toHaveProperty('options');
      expect(body.tags).toEqual(['boltzmann-attention']);
      expect(body).not.toHaveProperty('cost');
    }
  });
});
