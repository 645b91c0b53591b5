// The VJP of a threaded estimate: each worker's range sent back its `∂L/∂h` and a partial `∂L/∂J`.
import type { ConvergenceDiagnostics, IsingGradients } from '../../types.js';
import { concatDiagnostics, readDiagnostics, whereOf } from './threadedParts.js';
import type { Part, SplitRun } from './threadedParts.js';
import { assertGradMagnetization } from '../vjpInput.js';

/** The VJP task of each part held by a worker, with its range of the upstream gradient. */
function vjpJobsOf(run: SplitRun, remote: readonly Part[], gradMagnetization: Float64Array) {
  const { stride } = run.checked;
  return remote.map((p) => {
    const k = p.range[1] - p.range[0];
    const replyLength = k * stride + stride * stride + (run.fixedPoint ? 2 * k : 0);
    const grad = gradMagnetization.slice(p.range[0] * stride, p.range[1] * stride);
    return {
      slot: p.slot,
      serial: p.serial,
      replyLength,
      where: whereOf(p.range),
      task: { kind: 'sampler-vjp' as const, handle: p.handle, grad, replyLength },
    };
  });
}

/**
 * The VJP of a threaded estimate: the parts run here and the workers' parts in parallel, `∂L/∂h`
 * placed by range, `∂L/∂J` summed (equal to one thread's up to summation order), and for a
 * fixed-point sampler the adjoint diagnostics in batch order.
 */
export function threadedVjp(run: SplitRun, gradMagnetization: Float64Array): IsingGradients {
  const { sampler, checked, parts, fixedPoint, tolerance } = run;
  const { stride, size } = checked;
  assertGradMagnetization(checked, gradMagnetization, `${sampler} vjp`);
  const remote = parts.filter((p) => p.local === undefined);
  const localParts = parts.filter((p) => p.local !== undefined);
  const grads = run.pool.runSplitSync(
    vjpJobsOf(run, remote, gradMagnetization),
    () =>
      localParts.map((p) =>
        p.local!.vjp(gradMagnetization.slice(p.range[0] * stride, p.range[1] * stride)),
      ),
    sampler,
  );
  const fields = new Float64Array(size * stride);
  const couplings = new Float64Array(stride * stride);
  const adjoint = new Map<Part, ConvergenceDiagnostics>();
  const add = (
    p: Part,
    dh: Float64Array,
    dJ: Float64Array,
    d: ConvergenceDiagnostics | undefined,
  ): void => {
    fields.set(dh.subarray(0, (p.range[1] - p.range[0]) * stride), p.range[0] * stride);
    for (let i = 0; i < couplings.length; i++) couplings[i]! += dJ[i]!;
    if (d !== undefined) adjoint.set(p, d);
  };
  localParts.forEach((p, i) => {
    const g = grads.local[i]! as IsingGradients & { diagnostics?: ConvergenceDiagnostics };
    add(p, g.fields, g.couplings, g.diagnostics);
  });
  remote.forEach((p, i) => {
    const payload = grads.replies[i];
    if (payload === undefined)
      throw new Error('unreachable: a vjp job with a serial always reaches its worker');
    const k = p.range[1] - p.range[0];
    const d = fixedPoint
      ? readDiagnostics(payload, k * stride + stride * stride, k, tolerance)
      : undefined;
    add(
      p,
      payload.subarray(0, k * stride),
      payload.subarray(k * stride, k * stride + stride * stride),
      d,
    );
  });
  if (!fixedPoint) return { fields, couplings };
  const ordered = parts.map((p) => adjoint.get(p)!);
  return {
    fields,
    couplings,
    diagnostics: concatDiagnostics(ordered, tolerance),
  } as IsingGradients;
}
