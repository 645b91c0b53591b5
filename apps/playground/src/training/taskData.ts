import {
  bracketTrainingTask,
  charTrainingStream,
  charValidationSet,
  createCharCorpus,
} from '@boltzmann/datasets';
import type { TrainingBatch } from '@boltzmann/datasets';
import type { TaskName } from './trainConfig.js';

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
  next(batchSize: number): TrainingBatch;
  readonly evalBatch: TrainingBatch;
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
  const brackets = bracketTrainingTask({ T: length, mode: 'prefix', types: BRACKET_TYPES, seed });
  const { task } = brackets;
  const ids = new Map(task.vocab.map((c, i) => [c, i]));
  const example = '([()])[]([])'.slice(0, length);
  return {
    name: 'brackets',
    length,
    vocabSize: brackets.vocabSize,
    outputSize: brackets.outputSize,
    next: (batchSize) => brackets.next(batchSize),
    evalBatch: brackets.test,
    accuracyLabel: 'closing brackets matched (held-out strings)',
    exampleText: example,
    alphabet: task.vocab.join(''),
    encode: (text) => encodeWith(text, length, (c) => ids.get(c), `one of ${task.vocab.join(' ')}`),
  };
}

/** Next-character prediction on a Tiny Shakespeare excerpt (90 % train, 10 % held out). */
export function createShakespeareTask(text: string, length: number, seed: number): PlaygroundTask {
  const corpus = createCharCorpus(text);
  const stream = charTrainingStream(corpus, length, seed);
  const example = 'To be, or not to be'.slice(0, length);
  return {
    name: 'shakespeare',
    length,
    vocabSize: stream.vocabSize,
    outputSize: stream.outputSize,
    next: (batchSize) => stream.next(batchSize),
    evalBatch: charValidationSet(corpus, length, SHAKESPEARE_EVAL_WINDOWS),
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
