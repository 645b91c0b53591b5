/**
 * Runs tasks one after another even when they are started concurrently: the tasks of one queue
 * share the trainer's weights, so each must start from what the previous one left (a step from
 * the previous step's weights, an evaluation between two steps). A failed task does not stop the
 * next.
 */
export function serialQueue(): <R>(task: () => Promise<R>) => Promise<R> {
  let queue: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };
}

/**
 * Runs `step` calls one after another even when they are made concurrently: a trainer's step
 * must start from the weights the previous one left (and a sampler's estimate be made from them).
 * A failed step does not stop the next.
 */
export function serialSteps<A, R>(step: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  const serial = serialQueue();
  return (arg) => serial(() => step(arg));
}
