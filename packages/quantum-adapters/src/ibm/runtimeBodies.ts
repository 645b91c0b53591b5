// The request bodies the Runtime client sends (and the `ibm` dry run writes): a Sampler V2 job and
// a session, each checked before anything is sent.
import { echo } from '@boltzmann/ising-core/internal';
import { invalidArgument } from '../shared/errors.js';
import { positiveInt } from '../shared/options.js';
import { MAX_IBM_JOB_COST_SECONDS } from './samplerJobOptions.js';
import type { RuntimeSessionRequest, SamplerJobRequest } from './runtimeTypes.js';

/**
 * A path segment from a caller's name or id, escaped.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT unless it is a non-empty string.
 */
export function pathSegment(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidArgument(`${what} must be a non-empty string, got ${echo(value)}`);
  return encodeURIComponent(value);
}

/**
 * The `POST jobs` body of a Sampler V2 job: `{program_id: "sampler", backend, params: {version: "2",
 * pubs, options?}, session_id?, tags?, cost?}` (`qiskit_ibm_runtime/api/rest/runtime.py`'s
 * `program_run`, which sends `max_execution_time` as `cost`).
 * `version` is the string "2", the type IBM's REST guide sends (Qiskit/documentation @ 02cf37a73122
 * docs/guides/primitives-rest-api.ipynb, every Sampler and Estimator example). [UNCERTAIN] the
 * Python primitive sends the integer 2 (`options/options.py` `_VERSION`); the service is not known
 * to refuse either.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for no pubs, an empty circuit, parameter values that are not an object, list or null, shots that are not a positive integer, tags that are not strings, or a max execution time that is not an integer in [1, 10800].
 */
export function samplerJobRequestBody(request: SamplerJobRequest): Record<string, unknown> {
  pathSegment(request.backend, 'backend');
  if (!Array.isArray(request.pubs) || request.pubs.length === 0)
    throw invalidArgument('submitSamplerJob needs at least one pub');
  request.pubs.forEach((pub, i) => {
    const [qasm, params, shots] = Array.isArray(pub) ? pub : [];
    if (typeof qasm !== 'string' || qasm.trim() === '')
      throw invalidArgument(`pub ${i}: the circuit must be OpenQASM 3 text, got ${echo(qasm)}`);
    if (params !== null && typeof params !== 'object')
      throw invalidArgument(`pub ${i}: parameter values must be an object, a list or null`);
    positiveInt(shots as number, `pub ${i} shots`);
  });
  if (request.tags !== undefined && !request.tags.every((t) => typeof t === 'string'))
    throw invalidArgument(`tags must be strings, got ${echo(request.tags)}`);
  const params: Record<string, unknown> = { version: '2', pubs: request.pubs };
  if (request.options !== undefined) params.options = request.options;
  const body: Record<string, unknown> = {
    program_id: 'sampler',
    backend: request.backend,
    params,
  };
  if (request.sessionId !== undefined) {
    pathSegment(request.sessionId, 'sessionId');
    body.session_id = request.sessionId;
  }
  if (request.tags !== undefined && request.tags.length > 0) body.tags = request.tags;
  const cost = request.maxExecutionTimeSeconds;
  if (cost !== undefined)
    body.cost = positiveInt(cost, 'maxExecutionTimeSeconds', MAX_IBM_JOB_COST_SECONDS);
  return body;
}

/**
 * The `POST sessions` body, `{mode, backend, max_ttl?}` (`qiskit_ibm_runtime/api/rest/runtime_session.py`'s
 * `create`; the REST guide's example sends `{backend, mode}`, and the answer carries `id`).
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for an empty backend, a mode other than batch/dedicated, or a bad maxTtlSeconds.
 */
export function sessionRequestBody(request: RuntimeSessionRequest): Record<string, unknown> {
  pathSegment(request.backend, 'backend');
  if (request.mode !== 'batch' && request.mode !== 'dedicated')
    throw invalidArgument(`session mode must be "batch" or "dedicated", got ${echo(request.mode)}`);
  const body: Record<string, unknown> = { mode: request.mode, backend: request.backend };
  // [UNCERTAIN] `max_ttl` in seconds is what the Python client sends for `max_time`; the service
  // caps it at the plan's limit. `instance` (the Python client's other field) is left out: the
  // Service-CRN header names the instance.
  if (request.maxTtlSeconds !== undefined)
    body.max_ttl = positiveInt(request.maxTtlSeconds, 'maxTtlSeconds');
  return body;
}
