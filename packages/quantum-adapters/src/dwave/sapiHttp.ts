// The SAPI endpoint and answer-size options (the token check is shared/options.ts's
// assertTokenOption; the exchange itself is shared/guardedFetch.ts's guardedExchange).
import { echo } from '@boltzmann/ising-core/internal';
import { invalidArgument } from '../shared/errors.js';
import { httpUrl } from '../shared/options.js';

/**
 * Default SAPI region (`DEFAULT_REGION` of dwave-cloud-client).
 *
 * @category D-Wave
 */
export const DEFAULT_DWAVE_REGION = 'na-west-1';

/**
 * Default largest SAPI answer read, in bytes (64 MiB).
 *
 * The largest legitimate answers are a raw `answer_mode` answer of 10,000 reads on a 5,000-qubit
 * Advantage (≈ 9 MiB of base64 solutions) and a solver list whose definitions carry every qubit
 * and coupler (a few MiB): 64 MiB leaves several times that, and still stops a runaway or hostile
 * server long before memory runs out.
 * @category D-Wave
 */
export const DEFAULT_SAPI_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * The SAPI base URL from `endpoint` or `region`, ending in `/`.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for an endpoint that is not an http(s) URL or a region that is not a plain name.
 */
export function resolveSapiEndpoint(options: {
  readonly endpoint?: unknown;
  readonly region?: unknown;
}): string {
  let base: string;
  if (options.endpoint !== undefined) {
    base = httpUrl(options.endpoint, 'endpoint').toString();
  } else {
    const region = options.region ?? DEFAULT_DWAVE_REGION;
    // A region becomes a host name: "evil.example/#" would otherwise send the token elsewhere.
    if (typeof region !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(region))
      throw invalidArgument(
        `region must be a SAPI region code such as "na-west-1", got ${echo(region)}`,
      );
    base = `https://${region}.cloud.dwavesys.com/sapi/v2/`;
  }
  return base.endsWith('/') ? base : `${base}/`;
}
