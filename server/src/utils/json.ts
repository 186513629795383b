/**
 * JSON.stringify without recursion, optionally in slices that hand the event loop back. V8's JSON.stringify
 * recurses per nesting level and overflows the stack at a few thousand levels; menus, categories and comment
 * threads may nest as deep as their data, so trees that deep are written with an explicit stack.
 * The output is the one JSON.stringify gives: `toJSON` honoured, `undefined`/functions dropped from objects and
 * written as `null` in arrays, non-finite numbers as `null`.
 */
type Frame =
  | { kind: 'array'; items: unknown[]; index: number }
  | { kind: 'object'; entries: [string, unknown][]; index: number; wrote: boolean };

const prepare = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ? (value as { toJSON: (key: string) => unknown }).toJSON(key)
    : value;

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/**
 * The writer: an explicit stack instead of recursion. `step(frames)` advances by at most that many containers'
 * worth of work and tells whether the whole value has been written, so a caller can pause between steps.
 */
function jsonWriter(root: unknown) {
  const first = prepare(root, '');
  let out = '';
  const stack: Frame[] = [];
  const open = (value: object) => {
    if (Array.isArray(value)) {
      out += '[';
      stack.push({ kind: 'array', items: value, index: 0 });
    } else {
      out += '{';
      stack.push({ kind: 'object', entries: Object.entries(value), index: 0, wrote: false });
    }
  };
  if (isContainer(first)) open(first);
  else out = JSON.stringify(first);

  const step = (frames: number): boolean => {
    for (let done = 0; stack.length > 0 && done < frames; done += 1) {
      const frame = stack[stack.length - 1];
      if (frame.kind === 'array') {
        if (frame.index >= frame.items.length) {
          out += ']';
          stack.pop();
          continue;
        }
        // A run of scalar items goes through the native writer in one call, which is much faster.
        const start = frame.index;
        const run: unknown[] = [];
        let value: unknown;
        while (frame.index < frame.items.length) {
          value = prepare(frame.items[frame.index], String(frame.index));
          if (isContainer(value)) break;
          run.push(value);
          frame.index += 1;
        }
        if (run.length > 0) out += (start > 0 ? ',' : '') + JSON.stringify(run).slice(1, -1);
        if (frame.index < frame.items.length) {
          if (frame.index > 0) out += ',';
          frame.index += 1;
          open(value as object);
        }
      } else {
        if (frame.index >= frame.entries.length) {
          out += '}';
          stack.pop();
          continue;
        }
        // Null prototype: a `__proto__` key stays an ordinary key.
        const run: Record<string, unknown> = Object.create(null);
        let key = '';
        let value: unknown;
        while (frame.index < frame.entries.length) {
          [key, value] = frame.entries[frame.index];
          value = prepare(value, key);
          if (isContainer(value)) break;
          run[key] = value;
          frame.index += 1;
        }
        const scalars = JSON.stringify(run).slice(1, -1);
        if (scalars) {
          out += (frame.wrote ? ',' : '') + scalars;
          frame.wrote = true;
        }
        if (frame.index < frame.entries.length) {
          out += `${frame.wrote ? ',' : ''}${JSON.stringify(key)}:`;
          frame.wrote = true;
          frame.index += 1;
          open(value as object);
        }
      }
    }
    return stack.length === 0;
  };

  return { step, text: () => out };
}

export function stringifyDeep(root: unknown): string {
  const writer = jsonWriter(root);
  writer.step(Infinity);
  return writer.text();
}

/** Lets timers and I/O (other requests) run before going on. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `stringifyDeep` that hands the event loop back whenever it has worked for `sliceMs`, so a big tree (10,000
 * comments, a 1,000-item menu) does not stall the other requests while it is written. Same output.
 */
export async function stringifyDeepAsync(root: unknown, { sliceMs = 10 }: { sliceMs?: number } = {}): Promise<string> {
  const writer = jsonWriter(root);
  let sliceStart = performance.now();
  while (!writer.step(256)) {
    if (performance.now() - sliceStart < sliceMs) continue;
    await yieldToEventLoop();
    sliceStart = performance.now();
  }
  return writer.text();
}

/**
 * Answers with a body that may nest as deep as its data (menus, categories, comment threads). V8's JSON.stringify,
 * which koa would use, is by far the fastest writer but overflows the stack at a few thousand levels: a tree that
 * deep is written by the explicit-stack writer instead, in slices.
 */
export async function sendDeepJson(ctx: { type: string; body: unknown }, value: unknown): Promise<void> {
  // Building the value was work of its own: let the other requests in before writing it.
  await yieldToEventLoop();
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    text = await stringifyDeepAsync(value);
  }
  ctx.type = 'application/json';
  ctx.body = text;
}
