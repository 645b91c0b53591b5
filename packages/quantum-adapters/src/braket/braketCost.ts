// What a `braket` call costs before it is sent: AWS's on-demand price of a quantum task (a fee per
// task and one per shot), as the CostEstimate every hardware dry run writes (`braket-0001/estimate.json`).
import type { CostEstimate } from '../shared/costEstimate.js';

/**
 * Where the rates below were read, and when.
 *
 * @category Amazon Braket
 */
export const BRAKET_PRICING_SOURCE =
  'Amazon Braket pricing page, on-demand quantum computers table (aws.amazon.com/id/braket/pricing, read 2026-12-06; the page shows no date)';

/**
 * The per-task fee, the same on every QPU (USD).
 *
 * @category Amazon Braket
 */
export const BRAKET_TASK_FEE_USD = 0.3;

/**
 * A QPU family's per-shot price (USD), with the device ARNs it applies to.
 *
 * @category Amazon Braket
 */
export interface BraketShotRate {
  readonly family: string;
  readonly perShotUsd: number;
  /** Whether a device ARN belongs to the family (its `device/qpu/<provider>/<name>` path). */
  readonly matches: (arn: string) => boolean;
}

const qpuPath = (arn: string): string | undefined => /::device\/qpu\/(.+)$/.exec(arn)?.[1];

/**
 * The gate-model QPU families of the pricing page and their per-shot prices.
 *
 * Devices are matched by the ARN names of amazon-braket-sdk-python's device list
 * (`src/braket/devices/devices.py`
 * @e56392e9461a): IonQ `Forte-1` (not `Forte-Enterprise-1`, which the page does not name),
 * `Aria-*`, IQM `Garnet`, Rigetti `Ankaa-*`. QuEra Aquila (analog, not gate model) is left out.
 * @category Amazon Braket
 */
export const BRAKET_SHOT_RATES: readonly BraketShotRate[] = [
  { family: 'IonQ Forte', perShotUsd: 0.08, matches: (a) => qpuPath(a) === 'ionq/Forte-1' },
  {
    family: 'IonQ Aria',
    perShotUsd: 0.03,
    matches: (a) => /^ionq\/Aria-\d+$/.test(qpuPath(a) ?? ''),
  },
  { family: 'IQM Garnet', perShotUsd: 0.00145, matches: (a) => qpuPath(a) === 'iqm/Garnet' },
  {
    family: 'Rigetti Ankaa',
    perShotUsd: 0.0009,
    matches: (a) => /^rigetti\/Ankaa-\d+$/.test(qpuPath(a) ?? ''),
  },
];

/**
 * The per-shot rate of a device, or undefined when the pricing page names none for it.
 *
 * @category Amazon Braket
 */
export function braketShotRate(deviceArn: string): BraketShotRate | undefined {
  return BRAKET_SHOT_RATES.find((r) => r.matches(deviceArn));
}

/**
 * The unit costs of a `braket` call: each problem is one quantum task of `shots` shots, so
 * `perProblem.usd = task fee + shots × per-shot price` of the device's family. A managed simulator
 * (SV1, DM1, TN1) is billed by the minute of simulation, which is not known before the task
 * runs, and a device the pricing page does not name has no known rate: both get no `usd`, only an
 * assumption line saying why (never a guess).
 *
 * @summary The unit costs of a `braket` call.
 * @example
 * import { braketCostEstimate } from '@boltzmann/quantum-adapters';
 *
 * const arn = 'arn:aws:braket:eu-north-1::device/qpu/iqm/Garnet';
 * console.log(braketCostEstimate({ deviceArn: arn, shots: 1000 }, 4).perProblem.usd); // 0.3 + 1000 × 0.00145
 * @category Amazon Braket
 */
export function braketCostEstimate(
  options: { readonly deviceArn: string; readonly shots: number },
  problems: number,
): CostEstimate {
  const { deviceArn, shots } = options;
  const rate = braketShotRate(deviceArn);
  const assumptions: string[] = [];
  let usd: number | undefined;
  if (rate) {
    usd = BRAKET_TASK_FEE_USD + shots * rate.perShotUsd;
    assumptions.push(
      `one quantum task per problem: $${BRAKET_TASK_FEE_USD.toFixed(2)} a task + ${shots} shots × $${rate.perShotUsd} a shot (${rate.family}), from the ${BRAKET_PRICING_SOURCE}`,
    );
  } else if (deviceArn.includes('::device/quantum-simulator/')) {
    assumptions.push(
      `${deviceArn} is a managed simulator, billed by the minute of simulation time (${BRAKET_PRICING_SOURCE.split(',')[0]}), which is not known before a task runs: no price is estimated`,
    );
  } else {
    assumptions.push(
      `the rate of ${deviceArn} is unknown: the ${BRAKET_PRICING_SOURCE} names none for it, so no price is estimated`,
    );
  }
  assumptions.push(
    'S3 storage of the results and other AWS services are billed separately and are not counted',
  );
  const perProblem = usd === undefined ? {} : { usd };
  return {
    provider: 'braket',
    perProblem,
    perJob: {},
    problemsPerJob: 1,
    call: { problems, jobs: problems, ...(usd === undefined ? {} : { usd: usd * problems }) },
    limits: [],
    assumptions,
  };
}
