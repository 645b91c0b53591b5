import type { BraketClient } from '@aws-sdk/client-braket';
import type { S3Client } from '@aws-sdk/client-s3';
import { echo } from '@boltzmann/ising-core/internal';
import { malformed } from '../shared/errors.js';
import { assertContentLength, discardBody, readLimited } from '../shared/limitedBody.js';
import type { BodySource } from '../shared/limitedBody.js';

/** The two AWS SDK modules the braket sampler uses, as {@link loadSdk} loads them. */
export type Sdk = {
  braket: typeof import('@aws-sdk/client-braket');
  s3: typeof import('@aws-sdk/client-s3');
};
let sdkPromise: Promise<Sdk> | undefined;

/** The AWS SDK is loaded on first use: it is large, and dwave-only or dry-run users never need it. */
export function loadSdk(): Promise<Sdk> {
  sdkPromise ??= Promise.all([import('@aws-sdk/client-braket'), import('@aws-sdk/client-s3')]).then(
    ([braket, s3]) => ({ braket, s3 }),
  );
  return sdkPromise;
}

const MIB = 1024 * 1024;

/**
 * Default largest Braket API answer read, in bytes (4 MiB): CreateQuantumTask, GetQuantumTask and
 * CancelQuantumTask answer with a few kilobytes of JSON, so 4 MiB only ever stops a broken or
 * hostile endpoint.
 * @summary Default largest Braket API answer read, in bytes (4 MiB).
 * @category Amazon Braket
 */
export const DEFAULT_BRAKET_MAX_RESPONSE_BYTES = 4 * MIB;

/**
 * Default largest S3 object read, in bytes (256 MiB): a `results.json` of SV1's maximum of 100,000
 * shots on 34 qubits holds about 7 MiB of measurements (plus the echoed program), so 256 MiB leaves
 * room for larger devices and probability tables while bounding the memory one task can take.
 * @summary Default largest S3 object read, in bytes (256 MiB).
 * @category Amazon Braket
 */
export const DEFAULT_BRAKET_MAX_RESULT_BYTES = 256 * MIB;

interface RawResponse {
  statusCode?: number;
  headers?: Record<string, string | undefined>;
  body?: unknown;
}

type Next = (args: unknown) => Promise<{ response: unknown }>;

const header = (response: RawResponse, name: string): string | undefined =>
  Object.entries(response.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

/** A byte limit and the option that sets it (named in the error). */
export interface ByteLimit {
  readonly bytes: number;
  readonly option: string;
}

/**
 * SDK middleware between the deserializer and the HTTP handler: refuses a `Content-Length` over
 * the limit and reads every body through {@link readLimited} before the SDK parses it. A
 * successful GetObject is left streaming under the `streamed` limit: its caller reads `Body` with
 * {@link readResultsJson}.
 */
function responseLimit(answers: ByteLimit, streamed: ByteLimit) {
  return (next: Next, context: { commandName?: string }) => async (args: unknown) => {
    const result = await next(args);
    const response = result.response as RawResponse;
    const what = (context.commandName ?? 'AWS request').replace(/Command$/, '');
    const status = response.statusCode ?? 0;
    const streaming = context.commandName === 'GetObjectCommand' && status >= 200 && status < 300;
    const limit = streaming ? streamed : answers;
    try {
      assertContentLength(header(response, 'content-length'), limit.bytes, what, limit.option);
    } catch (error) {
      discardBody(response.body as BodySource);
      throw error;
    }
    if (!streaming)
      response.body = await readLimited(
        response.body as BodySource,
        limit.bytes,
        what,
        limit.option,
      );
    return result;
  };
}

/**
 * Adds the response-size limits to a client this package built (a client passed in by the user is
 * left as it is; its S3 result bodies are still read with the limit by {@link readResultsJson}).
 *
 * @param client the SDK client.
 * @param answers the limit of every parsed answer (API JSON, S3 error XML).
 * @param streamed the limit of a streamed GetObject body (checked here against `Content-Length` only).
 * @returns the same client.
 */
export function limitResponses<C extends BraketClient | S3Client>(
  client: C,
  answers: ByteLimit,
  streamed: ByteLimit = answers,
): C {
  (client.middlewareStack as { add(middleware: never, options: never): void }).add(
    responseLimit(answers, streamed) as never,
    {
      step: 'deserialize',
      priority: 'low',
      name: 'boltzmannResponseLimit',
      tags: ['BOLTZMANN'],
    } as never,
  );
  return client;
}

/**
 * Reads and parses a `results.json` GetObject answer, counting bytes as they stream in.
 * @throws {AdapterError} ADAPTER_RESPONSE_TOO_LARGE over `limit`, ADAPTER_MALFORMED for non-JSON.
 */
export async function readResultsJson(
  object: { Body?: unknown; ContentLength?: number },
  limit: number,
  where: string,
): Promise<unknown> {
  const what = `GetObject ${where}`;
  try {
    assertContentLength(object.ContentLength, limit, what, 'maxResultBytes');
  } catch (error) {
    discardBody(object.Body as BodySource);
    throw error;
  }
  const text = new TextDecoder().decode(
    await readLimited(object.Body as BodySource, limit, what, 'maxResultBytes'),
  );
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw malformed(`${where} is not JSON: ${echo(text, 80)}`, cause);
  }
}
