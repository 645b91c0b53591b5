/** Deepest nesting of objects and arrays a plugin's options may have (the options object is level 1). */
export const MAX_OPTION_DEPTH = 32;

interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly key: string;
  readonly parent: Frame | undefined;
}

/** Plain data a config file can hold: arrays and plain objects. Class instances, typed arrays and functions are leaves. */
function isContainer(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function pathOf(frame: Frame): string {
  const keys: string[] = [];
  for (let f: Frame | undefined = frame; f !== undefined; f = f.parent)
    keys.push(f.key.length > 40 ? `${f.key.slice(0, 39)}…` : f.key);
  return keys.reverse().join('.');
}

/**
 * Finds a place where `options` nests plain objects or arrays more than `maxDepth` levels deep,
 * without recursion (a 60,000-deep object from a config file must not overflow the stack here or
 * in whatever walks it later). A cyclic object counts as infinitely deep. Each object is walked
 * again only when reached at a greater depth, so shared sub-objects cost no more than a tree.
 *
 * @returns the dotted path (from `options`) of the first too-deep value, or `undefined`.
 */
export function findTooDeep(options: object, maxDepth = MAX_OPTION_DEPTH): string | undefined {
  const seen = new WeakMap<object, number>();
  const stack: Frame[] = [{ value: options, depth: 1, key: 'options', parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) return pathOf(frame);
    if ((seen.get(frame.value) ?? 0) >= frame.depth) continue;
    seen.set(frame.value, frame.depth);
    const visit = (key: string, child: unknown): void => {
      if (isContainer(child))
        stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    };
    if (Array.isArray(frame.value)) {
      const array: readonly unknown[] = frame.value;
      for (let i = 0; i < array.length; i++) visit(String(i), array[i]);
    } else {
      for (const [key, child] of Object.entries(frame.value)) visit(key, child);
    }
  }
  return undefined;
}
