// The Runtime answers the client reads, each checked: a backend's configuration, properties and
// status, a session, a submitted job, a job's state, its metrics.
import { echo } from '@boltzmann/ising-core/internal';
import { malformed } from '../shared/errors.js';
import type {
  IbmBackendConfiguration,
  IbmBackendProperties,
  IbmBackendStatus,
} from './ibmTypes.js';
import type {
  RuntimeJobMetrics,
  RuntimeJobState,
  RuntimeJobStatus,
  RuntimeSession,
  SubmittedSamplerJob,
} from './runtimeTypes.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function object(value: unknown, what: string): Json {
  if (!isObject(value))
    throw malformed(`${what} did not return a JSON object: ${echo(value, 200)}`);
  return value;
}

const isIndex = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** Most qubits a configuration may claim: far above any device, low enough to route on. */
export const MAX_DEVICE_QUBITS = 16_384;

/** `GET backends/{name}/configuration`: the fields routing reads, checked; the rest passes through. */
export function parseConfiguration(body: unknown, what: string): IbmBackendConfiguration {
  const c = object(body, what);
  const problems: string[] = [];
  if (typeof c.backend_name !== 'string') problems.push('backend_name is not a string');
  if (!isIndex(c.n_qubits) || c.n_qubits < 1 || c.n_qubits > MAX_DEVICE_QUBITS)
    problems.push(`n_qubits is not an integer in [1, ${MAX_DEVICE_QUBITS}]`);
  if (!Array.isArray(c.basis_gates) || !c.basis_gates.every((g) => typeof g === 'string'))
    problems.push('basis_gates is not a list of gate names');
  const n = typeof c.n_qubits === 'number' ? c.n_qubits : 0;
  const pairOk = (p: unknown): boolean =>
    Array.isArray(p) && p.length === 2 && p.every((q) => isIndex(q) && q < n) && p[0] !== p[1];
  if (!Array.isArray(c.coupling_map) || !c.coupling_map.every(pairOk))
    problems.push(`coupling_map is not a list of [control, target] qubit pairs below n_qubits`);
  if (problems.length > 0) throw malformed(`${what}: ${problems.join('; ')}`);
  return c as unknown as IbmBackendConfiguration;
}

/** `GET backends/{name}/properties`: an object whose `qubits` and `gates`, when present, are lists. */
export function parseProperties(body: unknown, what: string): IbmBackendProperties {
  const p = object(body, what);
  for (const key of ['qubits', 'gates'] as const) {
    if (p[key] !== undefined && !Array.isArray(p[key]))
      throw malformed(`${what}: ${key} is not a list`);
  }
  return p as IbmBackendProperties;
}

/** `GET backends/{name}/status`: an object whose known fields, when present, have their types. */
export function parseBackendStatus(body: unknown, what: string): IbmBackendStatus {
  const s = object(body, what);
  const types: [string, string][] = [
    ['state', 'boolean'],
    ['status', 'string'],
    ['message', 'string'],
    ['length_queue', 'number'],
  ];
  for (const [key, type] of types) {
    if (s[key] !== undefined && s[key] !== null && typeof s[key] !== type)
      throw malformed(`${what}: ${key} is not a ${type}: ${echo(s[key])}`);
  }
  return s as IbmBackendStatus;
}

/** `POST sessions`: an object with a string `id`. */
export function parseSession(body: unknown, what: string): RuntimeSession {
  const s = object(body, what);
  if (typeof s.id !== 'string' || s.id === '')
    throw malformed(`${what} returned no session id: ${echo(body, 200)}`);
  return s as RuntimeSession;
}

/** `POST jobs`: `{ id, backend, messages? }`; warnings are the `data` of `messages` entries. */
export function parseSubmitted(body: unknown, what: string): SubmittedSamplerJob {
  const j = object(body, what);
  if (typeof j.id !== 'string' || j.id === '')
    throw malformed(`${what} returned no job id: ${echo(body, 200)}`);
  const warnings = Array.isArray(j.messages)
    ? j.messages
        .map((m: unknown) => (isObject(m) && typeof m.data === 'string' ? m.data : undefined))
        .filter((m): m is string => m !== undefined)
        .slice(0, 10)
        .map((m) => (m.length > 300 ? `${m.slice(0, 299)}…` : m))
    : [];
  return { id: j.id, warnings };
}

/** Runtime's states (any case) → the client's (`runtime_job_v2.py`'s API_TO_JOB_STATUS). */
const STATES: Readonly<Record<string, RuntimeJobState>> = {
  queued: 'QUEUED',
  running: 'RUNNING',
  completed: 'DONE',
  failed: 'ERROR',
  cancelled: 'CANCELLED',
  canceled: 'CANCELLED',
};

/**
 * `GET jobs/{id}`: `state.status` (or a top-level `status`) mapped case-insensitively, with
 * `state.reason` (and `reason_code`) when given. A status such as "Cancelled - Ran too long" maps by
 * its first word, the rest kept as the reason.
 * @throws {AdapterError} ADAPTER_MALFORMED for a missing or unknown status.
 */
export function parseJobStatus(body: unknown, what: string): RuntimeJobStatus {
  const j = object(body, what);
  const state = isObject(j.state) ? j.state : {};
  const raw = state.status ?? j.status;
  const word = typeof raw === 'string' ? /^[a-z]+/i.exec(raw.trim())?.[0]?.toLowerCase() : '';
  const status = word === undefined ? undefined : STATES[word];
  if (status === undefined)
    throw malformed(
      `${what}: unknown job status ${echo(raw)} (expected Queued, Running, Completed, Failed or Cancelled)`,
    );
  const parts: string[] = [];
  const rest = (raw as string)
    .trim()
    .slice(word!.length)
    .replace(/^[\s-:]+/, '');
  if (rest !== '') parts.push(rest);
  if (typeof state.reason === 'string' && state.reason !== '') parts.push(state.reason);
  if (typeof state.reason_code === 'number') parts.push(`code ${state.reason_code}`);
  return parts.length === 0 ? { status } : { status, reason: parts.join('; ') };
}

/** `GET jobs/{id}/metrics`: `usage.quantum_seconds` when it is a number. */
export function parseMetrics(body: unknown, what: string): RuntimeJobMetrics {
  const m = object(body, what);
  const usage = isObject(m.usage) ? m.usage : undefined;
  const q = usage?.quantum_seconds;
  if (q !== undefined && q !== null && (typeof q !== 'number' || !Number.isFinite(q) || q < 0))
    throw malformed(`${what}: usage.quantum_seconds is not a number ≥ 0: ${echo(q)}`);
  return typeof q === 'number' ? { quantumSeconds: q, raw: m } : { raw: m };
}
