// The Runtime client's options, checked at creation: credentials, instance, region or endpoint,
// API version. The `ibm` sampler runs the same checks when it is created.
import { echo } from '@boltzmann/ising-core/internal';
import { AdapterError, invalidArgument } from '../shared/errors.js';
import { httpUrl } from '../shared/options.js';
import { assertTokenOption } from '../shared/options.js';

/**
 * The Runtime REST base URL of each IBM Cloud region (`qiskit_ibm_runtime/api/utils.py`).
 *
 * @category IBM Quantum
 */
export const RUNTIME_REGIONS: Readonly<Record<'us-east' | 'eu-de', string>> = {
  'us-east': 'https://quantum.cloud.ibm.com/api/v1/',
  'eu-de': 'https://eu-de.quantum.cloud.ibm.com/api/v1/',
};

/**
 * Default region.
 *
 * @category IBM Quantum
 */
export const DEFAULT_RUNTIME_REGION = 'us-east';

/**
 * The IBM Cloud IAM token endpoint (global).
 *
 * @category IBM Quantum
 */
export const DEFAULT_IAM_ENDPOINT = 'https://iam.cloud.ibm.com/identity/token';

/**
 * `IBM-API-Version` sent by default: the date qiskit-ibm-runtime pins (`api/rest/base.py`).
 * [UNCERTAIN] which dates the service still accepts; the docs' examples used `2025-05-01`.
 * @category IBM Quantum
 */
export const DEFAULT_IBM_API_VERSION = '2026-04-15';

/**
 * Default largest Runtime answer read, in bytes (64 MiB).
 *
 * The largest legitimate answers are job results: each shot is one hex string (`"0x…"`, about
 * num_bits/4 + 5 bytes), so 300 pubs × 10,000 shots of 16 bits take ≈ 30 MiB and one pub of
 * 100,000 shots of 156 bits ≈ 4.5 MiB; raise it for more shots per job. It still stops a runaway
 * or hostile server long before memory runs out.
 * @category IBM Quantum
 */
export const DEFAULT_IBM_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * The Runtime base URL from `endpoint` or `region`, ending in `/`.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for an endpoint that is not an http(s) URL, or a region other than `us-east` and `eu-de`.
 */
export function resolveRuntimeEndpoint(options: {
  readonly endpoint?: unknown;
  readonly region?: unknown;
}): string {
  const region = options.region ?? DEFAULT_RUNTIME_REGION;
  if (typeof region !== 'string' || !Object.hasOwn(RUNTIME_REGIONS, region))
    throw invalidArgument(
      `region must be one of ${Object.keys(RUNTIME_REGIONS)
        .map((r) => `"${r}"`)
        .join(', ')} (IBM Quantum's Runtime regions), got ${echo(region)}`,
    );
  if (options.endpoint === undefined) return RUNTIME_REGIONS[region as 'us-east'];
  const base = httpUrl(options.endpoint, 'endpoint').toString();
  return base.endsWith('/') ? base : `${base}/`;
}

/**
 * The IAM token URL from `iamEndpoint` (default {@link DEFAULT_IAM_ENDPOINT}).
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT when it is not an absolute http(s) URL.
 */
export function resolveIamEndpoint(iamEndpoint: unknown): string {
  return httpUrl(iamEndpoint ?? DEFAULT_IAM_ENDPOINT, 'iamEndpoint').toString();
}

/**
 * The `IBM-API-Version` date (default {@link DEFAULT_IBM_API_VERSION}).
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT unless it is a real calendar date `YYYY-MM-DD`.
 */
export function resolveApiVersion(apiVersion: unknown): string {
  const v = apiVersion ?? DEFAULT_IBM_API_VERSION;
  const ok =
    typeof v === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(v) &&
    !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
    new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
  if (!ok)
    throw invalidArgument(
      `apiVersion must be a date YYYY-MM-DD such as "${DEFAULT_IBM_API_VERSION}", got ${echo(v)}`,
    );
  return v;
}

/**
 * The instance CRN from `serviceCrn` or `IBM_QUANTUM_CRN`; `undefined` only when `endpoint` is set
 * (a test server), since every real Runtime call needs it.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT when it is missing for the real service, or not a `crn:…` string without spaces.
 */
export function resolveServiceCrn(options: {
  readonly serviceCrn?: unknown;
  readonly endpoint?: unknown;
}): string | undefined {
  const crn = options.serviceCrn ?? (process.env.IBM_QUANTUM_CRN || undefined);
  if (crn === undefined) {
    if (options.endpoint !== undefined) return undefined;
    throw invalidArgument(
      'serviceCrn is required for IBM Quantum (the Runtime instance CRN, "crn:v1:bluemix:public:quantum-computing:…"): pass { serviceCrn } or set IBM_QUANTUM_CRN',
    );
  }
  if (typeof crn !== 'string' || !/^crn:[\x21-\x7e]+$/.test(crn))
    throw invalidArgument(
      `serviceCrn must be an instance CRN ("crn:v1:…", no spaces), got ${echo(crn)}`,
    );
  return crn;
}

/**
 * The API key from `apiKey` or `IBM_CLOUD_API_KEY`; `undefined` only when there is none and a
 * `fetch` override is given (a test double that needs no token).
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for a key that is not a string (its value not shown); ADAPTER_AUTH (not retryable) when there is no key.
 */
export function resolveApiKey(options: {
  readonly apiKey?: unknown;
  readonly fetch?: unknown;
}): string | undefined {
  assertTokenOption(options.apiKey, 'apiKey');
  const key = options.apiKey ?? process.env.IBM_CLOUD_API_KEY;
  if (key !== undefined && key.trim() !== '') return key;
  if (options.apiKey === undefined && options.fetch !== undefined) return undefined;
  throw new AdapterError(
    'ADAPTER_AUTH',
    'no IBM Cloud API key: pass { apiKey } or set IBM_CLOUD_API_KEY',
    { reason: 'auth', retryable: false },
  );
}
