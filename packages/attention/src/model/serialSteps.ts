/**
 * Runs `step` calls one after another even when they are made concurrently: a trainer's step
 * must start from the weights the previous one left (and a sampler's estimate be made from them).
 * A failed step does not stop the next.
 */
export function serialSteps<A, R>(step: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  let queue: Promise<unknown> = Promise.resolve();
  return (arg) => {
    const run = queue.then(() => step(arg));
    queue = run.catch(() => undefined);
    return run;
  };
}
