import { matchBrackets } from '@boltzmann/datasets';
import { createHeatmap } from '../charts/heatmap.js';
import type { Heatmap, HeatmapData } from '../charts/heatmapTypes.js';
import { h } from '../dom.js';
import { MAX_ATTENTION_CHARS, quote } from '../inputBounds.js';
import { VARIANTS } from '../training/trainConfig.js';
import type { Variant } from '../training/trainConfig.js';
import { createAttentionText } from './attentionText.js';

export interface AttentionView {
  /** A new run: its task's example string and alphabet. */
  reset(task: 'brackets' | 'shakespeare', exampleText: string, alphabet: string, T: number): void;
  show(
    step: number,
    text: string,
    chars: readonly string[],
    maps: Record<Variant, Float32Array>,
  ): void;
  showProblem(text: string, reason: string): void;
}

function visible(c: string): string {
  return c === ' ' ? '␣' : c === '\n' ? '⏎' : c;
}

/** The panel's help: what a row and its colours mean. */
function attentionHelp(): HTMLElement {
  return h(
    'p',
    { class: 'help' },
    'Type a string and see how each model attends: row ',
    h('var', {}, 'i'),
    ' is query position ',
    h('var', {}, 'i'),
    ', its colours the weights on keys ',
    h('var', {}, 'j'),
    ' ≤ ',
    h('var', {}, 'i'),
    ' (each row sums to 1). For brackets, the true opener of every closing bracket is outlined.',
  );
}

/** One attention heatmap per variant, side by side in `pair`. */
function attentionMaps(pair: HTMLElement): Record<Variant, Heatmap> {
  const maps = {} as Record<Variant, Heatmap>;
  for (const variant of VARIANTS) {
    maps[variant] = createHeatmap(pair, {
      title: `${variant} attention`,
      rowTitle: 'query i',
      colTitle: 'key j',
      scale: 'sequential',
      valueLabel: 'weight',
      id: `attention-${variant}`,
    });
  }
  return maps;
}

/** The opener of each closer of a bracket string, or `undefined` when the string does not parse. */
function bracketOpeners(text: string): Int32Array | undefined {
  try {
    return matchBrackets(text);
  } catch {
    return undefined;
  }
}

/**
 * One variant's map of `n` × `n` weights: keys j ≤ i, each closer's true opener outlined, and a
 * summary naming the key each query attends to most.
 */
function attentionMapData(
  weights: Float32Array,
  ticks: readonly string[],
  domain: number,
  openers: Int32Array | undefined,
  caption: string,
): HeatmapData {
  const n = ticks.length;
  const top = Array.from({ length: n }, (_, i) => {
    let best = 0;
    for (let j = 1; j <= i; j++) if (weights[i * n + j]! > weights[i * n + best]!) best = j;
    return best;
  });
  return {
    rows: n,
    cols: n,
    values: weights,
    defined: (i, j) => j <= i,
    rowTicks: ticks,
    colTicks: ticks,
    domain,
    ...(openers ? { outlined: (i: number, j: number) => openers[i] === j } : {}),
    summary: `${caption}: ${top.map((j, i) => `query ${i + 1} (${ticks[i]}) attends most to key ${j + 1} (${ticks[j]})`).join('; ')}.`,
  };
}

/**
 * The text box and one attention map per variant (rows: queries i, columns: keys j ≤ i).
 *
 * @param parent - the panel's element
 * @param onText - called with the box's string once typing pauses (and on each new run)
 * @returns `reset` for a new run, `show` for new maps, `showProblem` for a string that cannot be shown
 */
export function createAttentionView(
  parent: HTMLElement,
  onText: (text: string) => void,
): AttentionView {
  const { input, hint, note, setLimit } = createAttentionText(onText);
  // The problem line says why a string cannot be shown.
  const problem = h('p', { class: 'problem', role: 'status', id: 'attention-problem' });
  parent.append(
    attentionHelp(),
    h(
      'div',
      { class: 'attention-input' },
      h('label', { for: 'attention-text' }, 'String'),
      input,
      hint,
    ),
    note,
    problem,
  );
  const pair = h('div', { class: 'pair' });
  parent.append(pair);
  const maps = attentionMaps(pair);
  let task: 'brackets' | 'shakespeare' = 'brackets';

  return {
    reset(nextTask, exampleText, alphabet, T) {
      if (nextTask !== task || input.value === '') input.value = exampleText;
      task = nextTask;
      setLimit(Math.min(MAX_ATTENTION_CHARS, T));
      hint.textContent =
        nextTask === 'brackets'
          ? `up to T = ${T} of ( ) [ ]; every closer must match an opener`
          : `up to T = ${T} characters of the excerpt (${alphabet.length} distinct)`;
      onText(input.value);
    },
    show(step, text, chars, weights) {
      if (text !== input.value && document.activeElement === input) return; // a newer string is on its way
      problem.textContent = '';
      const ticks = chars.map(visible);
      const openers = task === 'brackets' ? bracketOpeners(text) : undefined;
      let max = 0;
      for (const variant of VARIANTS) for (const w of weights[variant]) max = Math.max(max, w);
      const caption = `Step ${step}, string ${JSON.stringify(text)}`;
      for (const variant of VARIANTS) {
        maps[variant].update(attentionMapData(weights[variant], ticks, max, openers, caption));
        maps[variant].canvas.dataset.text = text;
        maps[variant].canvas.dataset.step = String(step);
      }
    },
    showProblem(text, reason) {
      if (text === input.value) problem.textContent = `Cannot show ${quote(text)}: ${reason}.`;
    },
  };
}
