/**
 * The ISA check's comparison (native/isaCheck/README.md): two runs of the harness, a reference
 * ISA's (x86-64 base) and another's, read in step, each output compared by its rule: `exact` bit
 * for bit (and its hash, over every float), `each` float within tol · its scale (the reference's),
 * `region` within tol · max(floor, max |reference|); every `rest` (the floats outside the outputs)
 * and every exact `value` bit for bit, the others within tol relative. With `bitExact` every output
 * must be bit for bit the reference's.
 */

interface Sample {
  readonly i: number;
  readonly value: number;
  readonly bits: string;
  readonly scale: number;
}

interface Item {
  readonly line: string;
  /** `out`, `value`, `rest` or `case`. */
  readonly type: string;
  readonly where: string;
  readonly fields: readonly string[];
  readonly samples: Sample[];
}

/** What a comparison found: every failure, and the worst ratio to its tolerance by output. */
export interface IsaComparison {
  readonly failures: string[];
  /** `<kernel> <output>` → the worst |other − reference| / tolerance (0: bit for bit). */
  readonly worst: Map<string, number>;
  /** Outputs and values compared; of those with a tolerance, how many were bit for bit anyway. */
  readonly counts: { compared: number; tolerant: number; tolerantIdentical: number };
}

const floatOfBits = (hex: string) =>
  new Float32Array(new Uint32Array([Number.parseInt(hex, 16)]).buffer)[0]!;
const doubleOfBits = (hex: string) =>
  new Float64Array(new BigUint64Array([BigInt(`0x${hex}`)]).buffer)[0]!;

/** The harness's text as items, each output with its samples. */
function parse(text: string): Item[] {
  const items: Item[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    const head = fields[0]!;
    if (/^\d/.test(head)) {
      const [i, bits, scale] = fields;
      items.at(-1)?.samples.push({
        i: Number(i),
        bits: bits!,
        value: floatOfBits(bits!),
        scale: scale === undefined ? 0 : Number(scale),
      });
      continue;
    }
    if (head === 'case') current = fields[1]!;
    const where = head === 'out' || head === 'value' ? `${current} ${fields[1]}` : current;
    items.push({ line, type: head, where, fields, samples: [] });
  }
  return items;
}

/** The kernel of a case (its name without the sizes): `gemm_nn_3x4x5_…` → `gemm`. */
const kernelOf = (name: string) => name.replace(/_(nn|tn|nt|T?\d).*$/, '');

/** The worst ratio of an output's samples to their tolerance (Infinity where one must be exact). */
function outputRatio(ref: Item, other: Item, bitExact: boolean): number {
  const [, , kind, tol] = ref.fields;
  const tolerance = bitExact || kind === 'exact' ? 0 : Number(tol);
  let scale = Number(ref.fields[4]);
  for (const s of ref.samples) scale = Math.max(scale, Math.abs(s.value));
  let worst = 0;
  ref.samples.forEach((r, n) => {
    const o = other.samples[n]!;
    if (r.bits === o.bits) return;
    const allowed = tolerance * (kind === 'each' ? r.scale : scale);
    const ratio = Math.abs(o.value - r.value) / allowed;
    worst = Math.max(worst, Number.isNaN(ratio) ? Infinity : ratio);
  });
  // An exact output's hash covers its floats between the samples.
  return tolerance === 0 && ref.fields[6] !== other.fields[6] ? Infinity : worst;
}

/** A value's ratio to its tolerance (tol relative; 0: bit for bit). */
function valueRatio(ref: Item, other: Item, bitExact: boolean): number {
  const tolerance = bitExact ? 0 : Number(ref.fields[2]);
  if (ref.fields[3] === other.fields[3]) return 0;
  const [r, o] = [doubleOfBits(ref.fields[3]!), doubleOfBits(other.fields[3]!)];
  return Math.abs(o - r) / (tolerance * Math.abs(r));
}

/** The same item on both sides: its type, name, kind, count and sampled indices. */
function sameShape(ref: Item, other: Item): boolean {
  const keep = ref.type === 'out' ? 6 : ref.type === 'value' ? 3 : ref.type === 'rest' ? 1 : 2;
  return (
    ref.fields.slice(0, keep).join(' ') === other.fields.slice(0, keep).join(' ') &&
    ref.samples.length === other.samples.length &&
    ref.samples.every((s, n) => s.i === other.samples[n]!.i)
  );
}

/** Compares `other`'s run of the harness with `reference`'s (see the file's header). */
export function compareIsaRuns(reference: string, other: string, bitExact = false): IsaComparison {
  const [refs, others] = [parse(reference), parse(other)];
  const result: IsaComparison = {
    failures: [],
    worst: new Map(),
    counts: { compared: 0, tolerant: 0, tolerantIdentical: 0 },
  };
  if (refs.at(-1)?.type !== 'end' || others.at(-1)?.type !== 'end')
    result.failures.push('a run did not reach its end line');
  if (refs.length !== others.length)
    result.failures.push(`${refs.length} items against ${others.length}`);
  for (let n = 1; n < Math.min(refs.length, others.length); n++) {
    const [ref, oth] = [refs[n]!, others[n]!];
    if (!sameShape(ref, oth)) {
      result.failures.push(`out of step at ${ref.where}: "${ref.line}" against "${oth.line}"`);
      break;
    }
    if (ref.type === 'case' || ref.type === 'end') continue;
    const ratio =
      ref.type === 'out'
        ? outputRatio(ref, oth, bitExact)
        : ref.type === 'value'
          ? valueRatio(ref, oth, bitExact)
          : ref.fields[1] === oth.fields[1]
            ? 0
            : Infinity;
    result.counts.compared++;
    const tolerant =
      !bitExact && ref.type !== 'rest' && Number(ref.fields[ref.type === 'out' ? 3 : 2]) > 0;
    if (tolerant) {
      result.counts.tolerant++;
      if (ratio === 0 && (ref.type !== 'out' || ref.fields[6] === oth.fields[6]))
        result.counts.tolerantIdentical++;
    }
    const key = `${kernelOf(ref.where.split(' ')[0]!)} ${ref.type === 'rest' ? '(rest)' : ref.fields[1]!.replace(/_\d+$/, '')}`;
    result.worst.set(key, Math.max(result.worst.get(key) ?? 0, ratio));
    if (!(ratio <= 1))
      result.failures.push(`${ref.where} (${ref.type}): ${ratio} of its tolerance`);
  }
  return result;
}
