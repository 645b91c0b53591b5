// Model files under the Train panel: save the run's two models as `.safetensors`, and open a
// model file (safetensors, or JSON as earlier releases and `bench --save-models` wrote it) to see
// what it holds. The training worker encodes and loads them (training/modelFiles.ts).
import { h } from '../dom.js';
import type { TrainRequest } from '../protocol.js';
import type { Variant } from '../training/trainConfig.js';

export interface ModelFileControls {
  /** Offers the saved files as downloads (`null`: no run to save yet). */
  showSaved(files: Readonly<Record<Variant, Uint8Array>> | null): void;
  /** What an opened file holds, or why it could not be loaded. */
  showOpened(text: string, ok: boolean): void;
}

export function createModelFileControls(
  parent: HTMLElement,
  send: (request: TrainRequest) => void,
): ModelFileControls {
  const save = h('button', { type: 'button', id: 'model-save', class: 'secondary' }, 'Save models');
  const open = h('input', { type: 'file', id: 'model-open', accept: '.safetensors,.json' });
  const links = h('span', { id: 'model-links' });
  const status = h('p', { id: 'model-file-status', class: 'note', role: 'status' });
  parent.append(
    h('div', { class: 'model-files' }, save, ' ', links),
    h('label', { for: 'model-open' }, 'Open a model file (.safetensors or .json) '),
    open,
    status,
  );
  let urls: string[] = [];
  save.addEventListener('click', () => send({ type: 'saveModels' }));
  open.addEventListener('change', () => {
    const file = open.files?.[0];
    if (file === undefined) return;
    status.textContent = `Loading ${file.name}…`;
    void file
      .arrayBuffer()
      .then((buffer) =>
        send({ type: 'openModel', name: file.name, bytes: new Uint8Array(buffer) }),
      );
  });
  return {
    showSaved(files) {
      for (const url of urls) URL.revokeObjectURL(url);
      urls = [];
      links.replaceChildren();
      if (files === null) {
        status.textContent = 'Train first: there is no model to save yet.';
        return;
      }
      for (const [variant, bytes] of Object.entries(files)) {
        const url = URL.createObjectURL(
          new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }),
        );
        urls.push(url);
        const name = `playground-${variant}.safetensors`;
        links.append(h('a', { href: url, download: name }, `${name} (${bytes.length} bytes)`), ' ');
      }
    },
    showOpened(text, ok) {
      status.textContent = text;
      status.classList.toggle('problem', !ok);
    },
  };
}
