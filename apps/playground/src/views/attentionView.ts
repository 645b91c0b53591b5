import { matchBrackets } from '@boltzmann/datasets';
import { createHeatmap } from '../charts/heatmap.js';
import type { Heatmap } from '../charts/heatmapTypes.js';
import { h } from '../dom.js';
import { MAX_ATTENTION_CHARS, boundAttentionText, quote } from '../inputBounds.js';
import { VARIANTS } from '../training/trainConfig.js';
import type { Variant } from '../training/trainConfig.js';

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

/** The text box and one attention map per variant (rows: queries i, columns: keys j ≤ i). */
export function createAttentionView(
  parent: HTMLElement,
  onText: (text: string) => void,
): AttentionView {
  const input = h('input', {
    id: 'attention-text',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    // Before the first run, the longest T on offer; each run sets its own T (and the code checks too).
    maxlength: MAX_ATTENTION_CHARS,
    'aria-describedby': 'attention-hint attention-note',
  });
  const hint = h(
    'span',
    { id: 'attention-hint', class: 'note' },
    'press Train first: the maps follow the models as they learn',
  );
  // Says when a typed or pasted string was cut to T; the problem line says why a string cannot be shown.
  const note = h('p', { class: 'note', role: 'status', id: 'attention-note' });
  const problem = h('p', { class: 'problem', role: 'status', id: 'attention-problem' });
  parent.append(
    h(
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
    ),
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
  let task: 'brackets' | 'shakespeare' = 'brackets';
  let limit = MAX_ATTENTION_CHARS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // What an edit would have made of the string before maxlength cut it (a paste of 1.2 M characters).
  let pasteNote: string | undefined;
  input.addEventListener('beforeinput', (event) => {
    const incoming = event.data ?? event.dataTransfer?.getData('text/plain') ?? '';
    const from = input.selectionStart ?? input.value.length;
    const to = input.selectionEnd ?? from;
    const whole = input.value.slice(0, from) + incoming + input.value.slice(to);
    pasteNote = boundAttentionText(whole, limit).note;
    if (pasteNote === undefined) return;
    note.textContent = pasteNote; // also when the browser refuses the edit outright (no input event)
    setTimeout(() => (pasteNote = undefined), 0); // its input event, if any, comes in this task
  });
  /** Cuts the string to T at once (maxlength stops a paste, not a script) and says so. */
  const bound = (): void => {
    const bounded = boundAttentionText(input.value, limit);
    if (bounded.note !== undefined) input.value = bounded.text;
    note.textContent = bounded.note ?? pasteNote ?? '';
    pasteNote = undefined;
  };
  input.addEventListener('input', () => {
    bound();
    clearTimeout(timer);
    timer = setTimeout(() => onText(input.value), 120);
  });

  return {
    reset(nextTask, exampleText, alphabet, T) {
      if (nextTask !== task || input.value === '') input.value = exampleText;
      task = nextTask;
      limit = Math.min(MAX_ATTENTION_CHARS, T);
      input.maxLength = limit;
      bound();
      hint.textContent =
        nextTask === 'brackets'
          ? `up to T = ${T} of ( ) [ ]; every closer must match an opener`
          : `up to T = ${T} characters of the excerpt (${alphabet.length} distinct)`;
      onText(input.value);
    },
    show(step, text, chars, weights) {
      if (text !== input.value && document.activeElement === input) return; // a newer string is on its way
      problem.textContent = '';
      const n = chars.length;
      const ticks = chars.map(visible);
      let openers: Int32Array | undefined;
      if (task === 'brackets') {
        try {
          openers = matchBrackets(text);
        } catch {
          openers = undefined;
        }
      }
      let max = 0;
      for (const variant of VARIANTS) for (const w of weights[variant]) max = Math.max(max, w);
      for (const variant of VARIANTS) {
        const w = weights[variant];
        const top = Array.from({ length: n }, (_, i) => {
          let best = 0;
          for (let j = 1; j <= i; j++) if (w[i * n + j]! > w[i * n + best]!) best = j;
          return best;
        });
        maps[variant].update({
          rows: n,
          cols: n,
          values: w,
          defined: (i, j) => j <= i,
          rowTicks: ticks,
          colTicks: ticks,
          domain: max,
          ...(openers ? { outlined: (i: number, j: number) => openers![i] === j } : {}),
          summary: `Step ${step}, string ${JSON.stringify(text)}: ${top.map((j, i) => `query ${i + 1} (${ticks[i]}) attends most to key ${j + 1} (${ticks[j]})`).join('; ')}.`,
        });
        maps[variant].canvas.dataset.text = text;
        maps[variant].canvas.dataset.step = String(step);
      }
    },
    showProblem(text, reason) {
      if (text === input.value) problem.textContent = `Cannot show ${quote(text)}: ${reason}.`;
    },
  };
}
