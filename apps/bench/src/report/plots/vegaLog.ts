// Where Vega's and Vega-Lite's own messages go. Left to themselves they print `WARN …` on the
// console of whoever renders a report; here they go to the `boltzmann:bench:vega` debug channel,
// silent unless asked (`DEBUG=boltzmann:*`), and tests can collect them.
import { createDebug } from '@boltzmann/ising-core/internal';
import * as vega from 'vega';

/** The debug namespace of Vega's messages. */
export const VEGA_DEBUG_NAMESPACE = 'boltzmann:bench:vega';

const debug = createDebug(VEGA_DEBUG_NAMESPACE);

/** A Vega logger (vega-util's `LoggerInterface`): what `compile` and `new View` accept. */
export type VegaLogger = ReturnType<typeof vega.logger>;

/**
 * A Vega logger at warning level (errors and warnings) whose messages go to `sink` as one line
 * each, `WARN shape dropped as it is incompatible with "line".`; by default the
 * {@link VEGA_DEBUG_NAMESPACE} debug channel.
 *
 * @example
 * const seen: string[] = [];
 * compile(spec, { logger: vegaLogger((l) => seen.push(l)) });
 */
export function vegaLogger(sink: (line: string) => void = debug): VegaLogger {
  return vega.logger(vega.Warn, undefined, (_method, level, args) =>
    sink(`${level} ${args.map(String).join(' ')}`),
  );
}
