import { bracketTask, createCharCorpus } from '@boltzmann/datasets';
import { createRng } from '@boltzmann/ising-core';
import type { TaskName } from './trainConfig.js';

/** One batch in the trainer's layout: row-major B × T, mask 1 where a position is scored. */
export interface PlaygroundBatch {
  readonly inputs: Int32Array;
  readonly targets: Int32Array;
  readonly mask?: Float32Array;
  readonly batchSize: number;
}

/** A typed string turned into token ids, or the reason it cannot be. */
export type Encoded =
  | { readonly ok: true; readonly tokens: Int32Array; readonly chars: string[] }
  | { readonly ok: false; readonly reason: string };

/** A task's data: a seeded training stream, a fixed held-out set, and an encoder for typed text. */
export interface PlaygroundTask {
  readonly name: TaskName;
  readonly length: number;
  readonly vocabSize: number;
  /** Output classes: the vocabulary (next character), or T (brackets: the opener's position). */
  readonly outputSize: number;
  next(batchSize: number): PlaygroundBatch;
  readonly evalBatch: PlaygroundBatch;
  /** What accuracy counts, for the chart's label. */
  readonly accuracyLabel: string;
  /** A default string for the Attention panel. */
  readonly exampleText: string;
  /** The characters a typed string may use. */
  readonly alphabet: string;
  encode(text: string): Encoded;
}

/** Bracket task of the playground: Dyck prefixes over `()` and `[]`, pointer targets at closers. */
const BRACKET_TYPES = 2;
/** Held-out windows of Tiny Shakespeare scored at every evaluation. */
const SHAKESPEARE_EVAL_WINDOWS = 256;
const VALIDATION_SEED = 1234;

function encodeWith(
  text: string,
  length: number,
  idOf: (c: string) => number | undefined,
  what: string,
): Encoded {
  const chars = Array.from(text);
  if (chars.length === 0) return { ok: false, reason: 'type at least one character' };
  if (chars.length > length)
    return { ok: false, reason: `at most T = ${length} characters (got ${chars.length})` };
  const tokens = new Int32Array(chars.length);
  for (let p = 0; p < chars.length; p++) {
    const id = idOf(chars[p]!);
    if (id === undefined)
      return {
        ok: false,
        reason: `${JSON.stringify(chars[p])} at position ${p + 1} is not ${what}`,
      };
    tokens[p] = id;
  }
  return { ok: true, tokens, chars };
}

/** Bracket matching: predict, at every closing bracket, the position of its opener. */
export function createBracketTask(length: number, seed: number): PlaygroundTask {
  const task = bracketTask({
    T: length,
    mode: 'prefix',
    types: BRACKET_TYPES,
    seed: seed + 0x5eed,
  });
  const ids = new Map(task.vocab.map((c, i) => [c, i]));
  const test = task.test;
  const example = '([()])[]([])'.slice(0, length);
  return {
    name: 'brackets',
    length,
    vocabSize: task.vocab.length,
    outputSize: length,
    next(batchSize) {
      const b = task.nextBatch(batchSize);
      return { inputs: b.tokens, targets: b.targets, mask: b.mask, batchSize };
    },
    evalBatch: {
      inputs: test.tokens,
      targets: test.targets,
      mask: test.mask,
      batchSize: test.batchSize,
    },
    accuracyLabel: 'closing brackets matched (held-out strings)',
    exampleText: example,
    alphabet: task.vocab.join(''),
    encode: (text) => encodeWith(text, length, (c) => ids.get(c), `one of ${task.vocab.join(' ')}`),
  };
}

/** Next-character prediction on a Tiny Shakespeare excerpt (90 % train, 10 % held out). */
export function createShakespeareTask(text: string, length: number, seed: number): PlaygroundTask {
  const corpus = createCharCorpus(text);
  const rng = createRng(seed + 0x5eed);
  const evalSet = corpus.validationWindows(length, SHAKESPEARE_EVAL_WINDOWS, VALIDATION_SEED);
  const example = 'To be, or not to be'.slice(0, length);
  return {
    name: 'shakespeare',
    length,
    vocabSize: corpus.vocab.size,
    outputSize: corpus.vocab.size,
    next(batchSize) {
      const b = corpus.sampleBatch('train', batchSize, length, rng);
      return { inputs: b.inputs, targets: b.targets, batchSize };
    },
    evalBatch: { inputs: evalSet.inputs, targets: evalSet.targets, batchSize: evalSet.batchSize },
    accuracyLabel: 'next character predicted (held-out text)',
    exampleText: example,
    alphabet: corpus.vocab.chars.join(''),
    encode: (typed) =>
      encodeWith(
        typed,
        length,
        (c) => {
          const id = corpus.vocab.idOf(c);
          return id >= 0 ? id : undefined;
        },
        'a character of the excerpt',
      ),
  };
}
