/**
 * JSON.stringify without recursion. V8's JSON.stringify recurses per nesting level and overflows the stack at a
 * few thousand levels; a menu tree may be as deep as its data, so deep trees are serialized with an explicit stack.
 * Output matches JSON.stringify for plain data: `toJSON` honoured, `undefined`/functions dropped from objects and
 * written as `null` in arrays, non-finite numbers as `null`.
 */
type Frame =
  | { kind: 'array'; items: unknown[]; index: number }
  | { kind: 'object'; entries: [string, unknown][]; index: number; wrote: boolean };

const skippable = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

const prepare = (value: unknown, key: string): unknown => {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  return value;
};

export function stringifyDeep(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];

  // Writes a value already passed through `prepare`: a scalar, or opens a container and pushes its frame.
  const write = (value: unknown) => {
    if (value === null || skippable(value)) out.push('null');
    else if (typeof value === 'number') out.push(Number.isFinite(value) ? String(value) : 'null');
    else if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    else if (typeof value !== 'object') out.push(JSON.stringify(value));
    else if (Array.isArray(value)) {
      out.push('[');
      stack.push({ kind: 'array', items: value, index: 0 });
    } else {
      out.push('{');
      stack.push({ kind: 'object', entries: Object.entries(value), index: 0, wrote: false });
    }
  };

  write(prepare(root, ''));
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.kind === 'array') {
      if (frame.index >= frame.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.index > 0) out.push(',');
      const index = frame.index;
      frame.index += 1;
      write(prepare(frame.items[index], String(index)));
    } else {
      if (frame.index >= frame.entries.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const [key, raw] = frame.entries[frame.index];
      frame.index += 1;
      const value = prepare(raw, key);
      if (skippable(value)) continue;
      if (frame.wrote) out.push(',');
      frame.wrote = true;
      out.push(JSON.stringify(key), ':');
      write(value);
    }
  }
  return out.join('');
}
