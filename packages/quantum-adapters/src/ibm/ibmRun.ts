// One `ibm` sample() call (ibmSampler.ts): the batch's problems routed onto the device, then run
// as Sampler V2 jobs and decoded, or written as a dry run with its QPU-time estimate.
import type { IsingBatch, SampleSet } from '@boltzmann/ising-core';
import type { DryRunCall } from '../shared/dryRun.js';
import { batchProblem } from '../shared/batchProblem.js';
import type { PollBackoff } from '../shared/retry.js';
import { runDeadline } from '../shared/retry.js';
import { decodeSamplerResults, resultsByteLimit } from './ibmResults.js';
import type { SamplerPubLayout } from './ibmResults.js';
import type { IbmSamplerOptions } from './ibmSamplerTypes.js';
import type { IbmTarget, IsaCircuit } from './ibmTypes.js';
import { estimateIbmUsage } from './ibmUsage.js';
import type { IbmUsageEstimate } from './ibmUsage.js';
import { samplerJobRequestBody, sessionRequestBody } from './runtimeBodies.js';
import { runSamplerJobs } from './runtimeJobs.js';
import type { SamplerJobSettings } from './samplerJobOptions.js';
import type { SubmissionThrottle } from './submissionThrottle.js';
import type { ResponseLimit, RuntimeClient, SamplerPub } from './runtimeTypes.js';
import { selectLayout, transpileAnneal } from './transpile.js';
import { errorLookup } from './calibration.js';
import { circuitFidelity } from './circuitFidelity.js';
import { chooseSteps } from './trotterSteps.js';
import type { StepChoice } from './trotterSteps.js';
import { AdapterError } from '../shared/errors.js';
import type { DeviceLayout } from './transpile.js';

/** What every call of one sampler shares. */
export interface IbmCallContext {
  readonly backend: string;
  readonly shots: number;
  readonly anneal: IbmSamplerOptions['anneal'];
  readonly fractionalGates: boolean;
  readonly sessionMode: 'batch' | 'none';
  readonly maxPubsPerJob: number | undefined;
  readonly backoff: PollBackoff;
  readonly deadlineMs: number;
  readonly cancelTimeoutMs: number;
  /** Layouts chosen so far, by spin count (one path per n for the sampler's life). */
  readonly layouts: Map<number, DeviceLayout>;
  /** Every job's tags, Sampler V2 options and max execution time (samplerJobOptions.ts). */
  readonly job: SamplerJobSettings;
  /** Paces the sampler's `POST jobs`, across its calls (submissionThrottle.ts). */
  readonly throttle: SubmissionThrottle;
  /** The expected-fidelity threshold the Trotter steps are chosen by (trotterSteps.ts). */
  readonly minFidelity: number;
  /** Refuse a real run whose circuits fall below `minFidelity` (ADAPTER_LOW_FIDELITY). */
  readonly strictFidelity: boolean;
  /** The steps chosen so far, by spin count (once per n for the sampler's life). */
  readonly steps: Map<number, StepChoice>;
}

/** Pubs per job: the option, capped by the backend's `max_experiments` (300 when it does not say). */
export function pubsPerJob(context: IbmCallContext, target: IbmTarget): number {
  const device = target.configuration.max_experiments ?? 300;
  return Math.max(1, Math.min(context.maxPubsPerJob ?? device, device));
}

/**
 * Every problem of the batch as a routed circuit: one layout and one Trotter step count per spin
 * count, chosen once (the steps by the calibration's expected fidelity, trotterSteps.ts).
 *
 * @param refuse throw ADAPTER_LOW_FIDELITY when `strictFidelity` is set and a size's circuits fall
 *   below the threshold (a real run; a dry run reports instead).
 */
export function routeBatch(
  batch: IsingBatch,
  target: IbmTarget,
  context: IbmCallContext,
  refuse = false,
): IsaCircuit[] {
  const routeTarget: IbmTarget = { ...target, fractionalGates: context.fractionalGates };
  const circuits: IsaCircuit[] = [];
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q]!;
    let layout = context.layouts.get(n);
    if (layout === undefined) {
      layout = selectLayout(routeTarget, n);
      context.layouts.set(n, layout);
    }
    const route = (steps: number, tau: number): IsaCircuit =>
      transpileAnneal(
        batchProblem(batch, q),
        { calibrate: 'linear-response', ...context.anneal, steps, tau, beta: batch.beta },
        routeTarget,
        { layout },
      );
    const choice = stepsFor(n, context, route, target);
    if (refuse && context.strictFidelity && choice.belowThreshold)
      throw lowFidelity(choice, context);
    circuits.push(route(choice.steps, choice.tau));
  }
  return circuits;
}

/** The step choice of spin count n: made once, with the first problem of that size. */
function stepsFor(
  n: number,
  context: IbmCallContext,
  route: (steps: number, tau: number) => IsaCircuit,
  target: IbmTarget,
): StepChoice {
  let choice = context.steps.get(n);
  if (choice === undefined) {
    const { properties } = target;
    const fidelityOf = (c: IsaCircuit) =>
      properties === undefined ? undefined : circuitFidelity(c, properties).fidelity;
    choice = chooseSteps(n, context.anneal, context.minFidelity, route, fidelityOf);
    context.steps.set(n, choice);
  }
  return choice;
}

function lowFidelity(choice: StepChoice, context: IbmCallContext): AdapterError {
  return new AdapterError(
    'ADAPTER_LOW_FIDELITY',
    `the ${choice.spins}-spin circuits at ${choice.steps} Trotter step(s) have an expected fidelity of ${choice.fidelity!.toPrecision(3)} on ${context.backend}, below minFidelity ${context.minFidelity} (strictFidelity): use fewer spins, fewer steps, a better device, or lower minFidelity`,
    { reason: 'rejected', retryable: false },
  );
}

/** The pubs of the routed circuits, and how to read each answer. */
function pubsOf(circuits: readonly IsaCircuit[], shots: number) {
  const pubs: SamplerPub[] = circuits.map((c) => [c.qasm, null, shots]);
  const layouts: SamplerPubLayout[] = circuits.map((c) => ({
    register: c.register,
    numBits: c.logicalOfBit.length,
    logicalOfBit: c.logicalOfBit,
    shots,
  }));
  return { pubs, layouts };
}

/**
 * Writes what the call would send: the IAM exchange (key redacted), the batch session, each job's
 * `POST jobs` body with its routed circuits, a summary of every circuit, and the QPU-time estimate.
 */
export function writeIbmDryRun(
  out: DryRunCall,
  circuits: readonly IsaCircuit[],
  target: IbmTarget,
  context: IbmCallContext,
  urls: { readonly iam: string; readonly runtime: string },
): IbmUsageEstimate {
  const perJob = pubsPerJob(context, target);
  const { pubs } = pubsOf(circuits, context.shots);
  const auth = { Authorization: 'Bearer <redacted: the IAM access token>' };
  out.json('iam-token-request.json', {
    method: 'POST',
    url: urls.iam,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=urn:ibm:params:oauth:grant-type:apikey&apikey=<redacted>',
  });
  if (context.sessionMode === 'batch') {
    out.json('session-request.json', {
      method: 'POST',
      url: `${urls.runtime}sessions`,
      headers: auth,
      body: sessionRequestBody({ backend: context.backend, mode: 'batch' }),
    });
  }
  for (let j = 0; j * perJob < pubs.length; j++) {
    const jobPubs = pubs.slice(j * perJob, (j + 1) * perJob);
    out.json(`job-${String(j + 1).padStart(3, '0')}-request.json`, {
      method: 'POST',
      url: `${urls.runtime}jobs`,
      headers: auth,
      body: samplerJobRequestBody({
        backend: context.backend,
        pubs: jobPubs,
        ...(context.sessionMode === 'batch' ? { sessionId: '<the session id>' } : {}),
        ...context.job,
      }),
    });
  }
  const lookup = target.properties === undefined ? undefined : errorLookup(target.properties);
  out.json(
    'circuits.json',
    circuits.map((c, q) => ({
      problem: q,
      spins: c.logicalOfBit.length,
      physicalQubits: c.physicalQubits,
      logicalOfBit: c.logicalOfBit,
      ...c.stats,
      ...(lookup ? { fidelity: circuitFidelity(c, target.properties!, lookup).fidelity } : {}),
    })),
  );
  out.json('fidelity.json', fidelityReport(target, context));
  const estimate = estimateIbmUsage(circuits, context.shots, target, perJob);
  out.json('estimate.json', {
    backend: context.backend,
    pubsPerJob: perJob,
    ...estimate,
    maxJobsPerMinute: context.throttle.maxPerMinute,
  });
  return estimate;
}

/** The steps chosen for each spin count, their anneal time and expected fidelity (`fidelity.json`). */
export function fidelityReport(target: IbmTarget, context: IbmCallContext) {
  const date = target.properties?.last_update_date;
  return {
    backend: context.backend,
    calibration:
      target.properties === undefined
        ? 'none: the backend gave no properties, so no fidelity is known'
        : `the backend's properties${date === undefined ? '' : ` of ${date}`}`,
    minFidelity: context.minFidelity,
    model:
      'Π (1 − ε) over the two-qubit gates, one-qubit gates and readouts of the routed circuit (rz exact); idle decoherence and crosstalk are not modelled',
    bySpins: [...context.steps.values()].map((c) => ({
      ...c,
      physicalQubits: context.layouts.get(c.spins)?.physicalQubits,
    })),
  };
}

/** What a real call did. */
export interface IbmCallResult {
  readonly sets: SampleSet[];
  readonly jobIds: readonly string[];
  readonly sessionId?: string;
}

/** How large one job's results may be, from the shots its pubs asked for (issue 38). */
function resultLimit(pubs: readonly SamplerPubLayout[]): ResponseLimit {
  const shots = pubs[0]?.shots ?? 0;
  return {
    maxBytes: resultsByteLimit(pubs),
    advice: `${pubs.length} pub(s) of ${shots} shots were asked, so a larger answer holds more shots than asked; a retry would not help (the job's stored results stay the same)`,
  };
}

/** Runs the routed circuits as Sampler V2 jobs within the deadline and decodes every shot. */
export async function runIbmCall(
  client: RuntimeClient,
  circuits: readonly IsaCircuit[],
  target: IbmTarget,
  context: IbmCallContext,
): Promise<IbmCallResult> {
  const perJob = pubsPerJob(context, target);
  const { pubs, layouts } = pubsOf(circuits, context.shots);
  const deadline = runDeadline(context.deadlineMs, 'ibm sample() call');
  try {
    const run = await runSamplerJobs(client, {
      backend: context.backend,
      pubs,
      maxPubsPerJob: perJob,
      sessionMode: context.sessionMode,
      signal: deadline.signal,
      backoff: context.backoff,
      cancelTimeoutMs: context.cancelTimeoutMs,
      ...context.job,
      throttle: context.throttle,
      resultLimit: (j) => resultLimit(layouts.slice(j * perJob, (j + 1) * perJob)),
    });
    const sets = run.results.flatMap((result, j) =>
      decodeSamplerResults(result, layouts.slice(j * perJob, (j + 1) * perJob)),
    );
    return {
      sets,
      jobIds: run.jobIds,
      ...(run.sessionId === undefined ? {} : { sessionId: run.sessionId }),
    };
  } finally {
    deadline.clear();
  }
}
