import { DatasetError } from './errors.js';
import { describe } from './internal/assert.js';

/**
 * A character vocabulary: the sorted distinct characters (Unicode code points) of a text,
 * with id `i` standing for `chars[i]`.
 */
export interface CharVocab {
  /** The distinct characters, sorted by code point; the id of a character is its index here. */
  readonly chars: readonly string[];
  /** Number of distinct characters (65 for Tiny Shakespeare). */
  readonly size: number;
  /** The id of one character, or -1 when it is not in the vocabulary. */
  idOf(char: string): number;
  /**
   * Encodes a text to ids, one per code point.
   * @throws {DatasetError} DATASET_INVALID_ARGUMENT when a character is not in the vocabulary.
   */
  encode(text: string): Int32Array;
  /**
   * Decodes ids back to text.
   * @throws {DatasetError} DATASET_INVALID_ARGUMENT when an id is not an integer in [0, size).
   */
  decode(ids: ArrayLike<number>): string;
}

/**
 * Builds the character vocabulary of a text: its distinct characters sorted by code point.
 *
 * @param text the corpus (must not be empty).
 * @returns the vocabulary with `encode`/`decode`.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT when `text` is not a non-empty string.
 * @example
 * const vocab = createCharVocab('hello');
 * vocab.chars; // ['e', 'h', 'l', 'o']
 * vocab.decode(vocab.encode('hole')); // 'hole'
 */
export function createCharVocab(text: string): CharVocab {
  if (typeof text !== 'string' || text.length === 0) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `text must be a non-empty string, got ${describe(text)}`,
    );
  }
  const chars = Array.from(new Set(text)).sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
  const ids = new Map<string, number>(chars.map((c, i) => [c, i]));
  return Object.freeze({
    chars: Object.freeze(chars),
    size: chars.length,
    idOf: (char: string) => ids.get(char) ?? -1,
    encode(input: string): Int32Array {
      if (typeof input !== 'string') {
        throw new DatasetError(
          'DATASET_INVALID_ARGUMENT',
          `encode needs a string, got ${describe(input)}`,
        );
      }
      const out = new Int32Array(input.length);
      let n = 0;
      for (const c of input) {
        const id = ids.get(c);
        if (id === undefined) {
          throw new DatasetError(
            'DATASET_INVALID_ARGUMENT',
            `character ${JSON.stringify(c)} at code point index ${n} is not in the vocabulary`,
          );
        }
        out[n++] = id;
      }
      // Astral characters take two UTF-16 units but one id, so the buffer may be longer than needed.
      return n === out.length ? out : out.slice(0, n);
    },
    decode(input: ArrayLike<number>): string {
      let s = '';
      for (let i = 0; i < input.length; i++) {
        const id = input[i]!;
        const c = Number.isInteger(id) ? chars[id] : undefined;
        if (c === undefined) {
          throw new DatasetError(
            'DATASET_INVALID_ARGUMENT',
            `id ${describe(id)} at index ${i} is not in [0, ${chars.length})`,
          );
        }
        s += c;
      }
      return s;
    },
  });
}
