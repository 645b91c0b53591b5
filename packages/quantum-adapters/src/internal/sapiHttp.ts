import { echo } from '@boltzmann/ising-core/internal';
import { AdapterError, invalidArgument } from '../errors.js';
import { discardBody, readResponseText } from './limitedBody.js';
import { httpUrl } from './options.js';

/** Default SAPI region (`DEFAULT_REGION` of dwave-cloud-client). */
export const DEFAULT_DWAVE_REGION = 'na-west-1';

/**
 * Default largest SAPI answer read, in bytes (64 MiB). The largest legitimate answers are a raw
 * `answer_mode` answer of 10,000 reads on a 5,000-qubit Advantage (≈ 9 MiB of base64 solutions)
 * and a solver list whose definitions carry every qubit and coupler (a few MiB): 64 MiB leaves
 * several times that, and still stops a runaway or hostile server long before memory runs out.
 */
export const DEFAULT_SAPI_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Most same-origin redirects followed for one request (fetch itself allows 20). */
export const MAX_SAPI_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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

/**
 * Rejects a `token` option that is not a string. The message names only the type: a token put
 * in the wrong place (a number, an object) is still a credential.
 */
export function assertTokenOption(token: unknown): asserts token is string | undefined {
  if (token !== undefined && typeof token !== 'string')
    throw invalidArgument(
      `token must be a string, got ${token === null ? 'null' : `a value of type ${typeof token}`} (not shown)`,
    );
}

function refused(what: string, why: string): AdapterError {
  return new AdapterError(
    'ADAPTER_REDIRECT_REFUSED',
    `${what} was redirected ${why}; the redirect was not followed, so the token was not sent there (set endpoint to the final URL if you trust it)`,
    {
      reason: 'rejected',
      retryable: false,
    },
  );
}

/** One request and its answer text. */
export interface SapiExchange {
  readonly response: Response;
  readonly text: string;
}

/**
 * Sends one SAPI request with `redirect: 'manual'`: same-origin redirects are followed (at most
 * {@link MAX_SAPI_REDIRECTS}; 307/308 keep method and body, 303 and a 301/302 after POST become a
 * GET without body, as fetch does), and any redirect to another origin, without a `Location`, or
 * hidden (an opaque redirect) is refused, because fetch would re-send `X-Auth-Token` (it strips
 * only `Authorization` across origins). The answer body is read with the byte limit.
 *
 * @throws {AdapterError} ADAPTER_REDIRECT_REFUSED, ADAPTER_RESPONSE_TOO_LARGE (neither retryable); fetch's own errors pass through.
 */
export async function sapiExchange(
  doFetch: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
  maxResponseBytes: number,
): Promise<SapiExchange> {
  const origin = new URL(url).origin;
  const what = `${init.method} ${url}`;
  let current = new URL(url);
  let { method, body } = init;
  for (let hops = 0; ; hops++) {
    const headers = { ...init.headers };
    if (body === undefined) delete headers['Content-Type'];
    const response = await doFetch(current.toString(), {
      method,
      headers,
      body,
      signal: init.signal,
      redirect: 'manual',
    });
    if (response.type === 'opaqueredirect') {
      discardBody(response.body);
      throw refused(what, 'to a location this fetch hides (an opaque redirect)');
    }
    if (!REDIRECTS.has(response.status)) {
      return {
        response,
        text: await readResponseText(response, maxResponseBytes, what, 'maxResponseBytes'),
      };
    }
    discardBody(response.body);
    const location = response.headers.get('location');
    if (location === null || location.trim() === '')
      throw refused(what, `(HTTP ${response.status}) without a Location`);
    let target: URL;
    try {
      target = new URL(location, current);
    } catch {
      throw refused(what, `(HTTP ${response.status}) to an unparsable Location`);
    }
    if (target.origin !== origin)
      throw refused(
        what,
        `(HTTP ${response.status}) to another origin, ${echo(target.origin, 300)}; the token is only sent to ${origin}`,
      );
    if (hops >= MAX_SAPI_REDIRECTS) throw refused(what, `more than ${MAX_SAPI_REDIRECTS} times`);
    if (
      (response.status === 303 && method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
    }
    current = target;
  }
}
