/** Computes the Anneal panel's distributions off the page's thread (2^n states × K Trotter steps). */
import type { AnnealEvent, AnnealRequest } from '../protocol.js';
import { errorMessage } from '../protocol.js';
import { workerScope } from '../workerScope.js';
import { computeAnneal } from './annealModel.js';

const scope = workerScope<AnnealRequest, AnnealEvent>();
let latest = 0;

scope.addEventListener('message', (event: MessageEvent<AnnealRequest>) => {
  const request = event.data;
  latest = request.id;
  // Let newer requests (a slider being dragged) replace older ones before the work starts.
  setTimeout(() => {
    if (request.id !== latest) return;
    let reply: AnnealEvent;
    try {
      reply = {
        type: 'result',
        id: request.id,
        settings: request.settings,
        result: computeAnneal(request.settings),
      };
    } catch (error) {
      reply = { type: 'error', id: request.id, message: errorMessage(error) };
    }
    scope.postMessage(reply);
  }, 0);
});
