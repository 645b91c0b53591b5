import { DatasetError } from '../errors.js';

/** Throws DATASET_INVALID_ARGUMENT unless `value` is an integer in [min, max]. */
export function assertIntInRange(
  name: string,
  value: unknown,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer in [${min}, ${max}]`;
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `${name} must be ${range}, got ${describe(value)}`,
    );
  }
  return value;
}

/** Throws DATASET_INVALID_ARGUMENT unless `value` is a finite number. */
export function assertFiniteNumber(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `${name} must be a finite number, got ${describe(value)}`,
    );
  }
  return value;
}

/** The lower-case form of a 64-hex-digit sha256; DATASET_INVALID_ARGUMENT otherwise (`name` and the value in the message). */
export function checkSha256(name: string, value: unknown): string {
  const hex = typeof value === 'string' ? value.toLowerCase() : '';
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `${name} must be 64 hex digits, got ${describe(value)}`,
    );
  }
  return hex;
}

/** A short, safe rendering of an offending value for error messages. */
export function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return Object.prototype.toString.call(value);
}
