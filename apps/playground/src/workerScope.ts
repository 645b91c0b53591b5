/**
 * The part of a dedicated worker's global scope the workers use. The site is type-checked with the
 * DOM library only (the WebWorker library conflicts with it in one program), so the workers see
 * `self` through this interface.
 */
export interface WorkerScope<In, Out> {
  postMessage(message: Out, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<In>) => void): void;
}

export function workerScope<In, Out>(): WorkerScope<In, Out> {
  return self as unknown as WorkerScope<In, Out>;
}
