/** A tiny element builder: `h('button', { type: 'button', class: 'secondary' }, 'Pause')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  el.append(...children);
  return el;
}

/** A labelled `<select>` row for a `.controls` grid. */
export function selectRow(
  id: string,
  label: string,
  options: ReadonlyArray<{ value: string; label: string }>,
  value: string,
): { label: HTMLLabelElement; select: HTMLSelectElement } {
  const select = h('select', { id, name: id });
  for (const o of options)
    select.append(h('option', { value: o.value, selected: o.value === value }, o.label));
  select.value = value;
  return { label: h('label', { for: id }, label), select };
}

/** A labelled range slider with its value shown beside it. */
export function rangeRow(
  id: string,
  label: string,
  range: { min: number; max: number; step: number; value: number },
  format: (value: number) => string,
): { label: HTMLLabelElement; wrap: HTMLElement; input: HTMLInputElement; refresh(): void } {
  const input = h('input', {
    id,
    name: id,
    type: 'range',
    min: range.min,
    max: range.max,
    step: range.step,
    value: range.value,
  });
  const output = h('output', { for: id });
  const refresh = (): void => {
    output.textContent = format(Number(input.value));
    input.setAttribute('aria-valuetext', output.textContent);
  };
  input.addEventListener('input', refresh);
  refresh();
  return {
    label: h('label', { for: id }, label),
    wrap: h('div', { class: 'range' }, input, output),
    input,
    refresh,
  };
}

/** A labelled number input. */
export function numberRow(
  id: string,
  label: string,
  range: { min: number; max: number; step: number | 'any'; value: number },
): { label: HTMLLabelElement; input: HTMLInputElement } {
  const input = h('input', {
    id,
    name: id,
    type: 'number',
    min: range.min,
    max: range.max,
    step: range.step,
    value: range.value,
    inputmode: 'decimal',
  });
  return { label: h('label', { for: id }, label), input };
}
