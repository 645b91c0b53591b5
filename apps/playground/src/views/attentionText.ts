import { h } from '../dom.js';
import { MAX_ATTENTION_CHARS, boundAttentionText } from '../inputBounds.js';

/** The Attention panel's text box, held to the run's T, with its hint and its note on cuts. */
export interface AttentionText {
  readonly input: HTMLInputElement;
  /** What the box accepts (set per run). */
  readonly hint: HTMLElement;
  /** Says when a typed or pasted string was cut to T. */
  readonly note: HTMLElement;
  /** Holds the string to `limit` characters from now on, and cuts the current one at once. */
  setLimit(limit: number): void;
}

/**
 * The text box, its hint and its note. A string longer than the limit is cut at once (`maxlength`
 * stops a paste, not a script) with a note on what was left out, also when the browser refuses a
 * paste outright; `onText` gets the string 120 ms after the last edit.
 *
 * @param onText - called with the box's string once typing pauses
 * @returns the elements to lay out and `setLimit`
 */
export function createAttentionText(onText: (text: string) => void): AttentionText {
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
  const note = h('p', { class: 'note', role: 'status', id: 'attention-note' });
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
    input,
    hint,
    note,
    setLimit(next) {
      limit = next;
      input.maxLength = next;
      bound();
    },
  };
}
