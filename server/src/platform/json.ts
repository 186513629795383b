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

/**
 * Lets timers and I/O (other requests) run before going on. One `setImmediate` is not enough: called from an I/O
 * callback (a request's first stretch), it runs in the same turn of the event loop, before any timer or other
 * request; called from the check phase, in the next one. The second hop is always in a turn after the caller's.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

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

/** A top-level array longer than this is written an element at a time (`stringifyInSlices`). */
const SLICED_ARRAY = 64;

const dropped = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** What `shallowText` gives for a value that nests too deep for V8's JSON.stringify. */
const DEEP = Symbol('deep');

/** V8's JSON.stringify of `value`, or DEEP when it overflows the stack. */
const shallowText = (value: unknown): string | typeof DEEP => {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return DEEP;
  }
};

/** One value as JSON.stringify writes it, by the explicit-stack writer when it nests too deep for V8's. */
const stringifyOne = async (value: unknown): Promise<string> => {
  const text = shallowText(value);
  return text === DEEP ? stringifyDeepAsync(value) : text;
};

/**
 * JSON.stringify's text of a plain object, its long arrays (`data` of a 10,000-comment tree, of a category tree)
 * written an element at a time, the event loop handed back whenever the work has taken `sliceMs`. Anything else is
 * written at once (a menu's `data` is one object). Same output.
 */
export async function stringifyInSlices(value: unknown, { sliceMs = 5 }: { sliceMs?: number } = {}): Promise<string> {
  const plain =
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  if (!plain) return stringifyOne(value);
  const parts: string[] = ['{'];
  let sliceStart = performance.now();
  for (const [key, field] of Object.entries(value)) {
    if (dropped(field)) continue;
    if (parts.length > 1) parts.push(',');
    parts.push(JSON.stringify(key), ':');
    if (!Array.isArray(field) || field.length <= SLICED_ARRAY) {
      parts.push(await stringifyOne(field));
      continue;
    }
    parts.push('[');
    for (let index = 0; index < field.length; index += 1) {
      if (index > 0) parts.push(',');
      const item: unknown = field[index];
      // Awaited only for an element too deep for V8's writer: the others cost no turn of the microtask queue.
      const text = dropped(item) ? 'null' : shallowText(item);
      parts.push(text === DEEP ? await stringifyDeepAsync(item) : text);
      if (performance.now() - sliceStart < sliceMs) continue;
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    parts.push(']');
  }
  parts.push('}');
  return parts.join('');
}

/**
 * Answers with a body that may nest as deep as its data (menus, categories, comment threads), written in slices
 * (`stringifyInSlices`): a big tree does not hold the other requests up while it is written, and one that nests
 * deeper than V8's JSON.stringify can go is written by the explicit-stack writer.
 */
export async function sendDeepJson(ctx: { type: string; body: unknown }, value: unknown): Promise<void> {
  // Building the value was work of its own: let the other requests in before writing it.
  await yieldToEventLoop();
  const text = await stringifyInSlices(value);
  ctx.type = 'application/json';
  ctx.body = text;
}
