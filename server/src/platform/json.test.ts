import fs from 'fs';
import { stringifyDeep, stringifyDeepAsync, stringifyInSlices, yieldToEventLoop } from './json';

/** `write(value)` lets a callback queued before it run, and gives JSON.stringify's text. */
const expectOthersRunWhileWriting = async (write: (value: unknown) => Promise<string>, value: unknown) => {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  const text = await write(value);
  expect(ran).toBe(true);
  expect(text).toBe(JSON.stringify(value));
};

describe('stringifyDeep', () => {
  it.each([
    ['scalars', [null, true, false, 0, -1.5, 'a "quoted"\nline', '\u2028', '']],
    ['nested data', { a: [1, { b: 'c', d: [] }], e: {}, f: null }],
    ['dates and toJSON', { at: new Date('2024-01-02T03:04:05Z'), custom: { toJSON: () => ({ x: 1 }) } }],
    ['undefined and functions', { a: undefined, b: () => 1, c: [undefined, () => 1], d: 1 }],
    ['non-finite numbers', { a: NaN, b: Infinity, c: [-Infinity] }],
    ['a top-level string', 'text'],
    ['arrays mixing scalars and containers', [1, [], [[2], 'x'], {}, 'y', [null, undefined], { a: [] }]],
    ['a __proto__ key', JSON.parse('{"__proto__":1,"b":{"__proto__":[2]}}')],
    ['empty containers and skipped-only objects', [{}, [], { a: undefined }, { a: undefined, b: { c: () => 1 } }]],
  ])('writes %s exactly like JSON.stringify', (_, value) => {
    expect(stringifyDeep(value)).toBe(JSON.stringify(value));
  });

  it.each([
    ['nested data', { a: [1, { b: 'c', d: [] }], e: {}, f: null }],
    ['a top-level scalar', 42],
    ['a wide tree', { data: Array.from({ length: 5_000 }, (_, id) => ({ id, title: `item ${id}`, children: [{ id: -id }] })) }],
  ])('writes %s exactly like JSON.stringify when written in slices', async (_, value) => {
    expect(await stringifyDeepAsync(value, { sliceMs: 0 })).toBe(JSON.stringify(value));
  });

  it('lets other callbacks run while it writes a big value', async () => {
    const value = Array.from({ length: 20_000 }, (_, id) => ({ id, children: [{ id }] }));
    await expectOthersRunWhileWriting((v) => stringifyDeepAsync(v, { sliceMs: 0 }), value);
  });

  it('writes a 100,000-deep tree that JSON.stringify cannot', () => {
    const root = { id: 0, children: [] as unknown[] };
    let node = root;
    for (let id = 1; id < 100_000; id += 1) {
      const child = { id, children: [] as unknown[] };
      node.children.push(child);
      node = child;
    }
    expect(() => JSON.stringify(root)).toThrow(RangeError);
    const text = stringifyDeep(root);
    expect(text.startsWith('{"id":0,"children":[{"id":1,"children":[')).toBe(true);
    expect(text.endsWith('{"id":99999,"children":[]}' + ']}'.repeat(99_999))).toBe(true);
  });

  it('refuses a BigInt like JSON.stringify', () => {
    expect(() => stringifyDeep({ n: BigInt(1) })).toThrow(TypeError);
  });

  describe('stringifyInSlices', () => {
    const deepChain = (depth: number) => {
      const root = { id: 0, children: [] as unknown[] };
      let node = root;
      for (let id = 1; id < depth; id += 1) {
        const child = { id, children: [] as unknown[] };
        node.children.push(child);
        node = child;
      }
      return root;
    };

    it.each([
      [
        'a long data array',
        {
          data: Array.from({ length: 500 }, (_, id) => ({ id, at: new Date(id * 1000), children: [] })),
          meta: { total: 500 },
        },
      ],
      [
        'dropped values in a long array and beside it',
        { a: undefined, data: Array.from({ length: 100 }, (_, i) => [undefined, () => 1, i][i % 3]), b: () => 1, c: 1 },
      ],
      ['a short array and scalars', { data: [1, 2], n: NaN, s: 'x' }],
      ['an empty object', {}],
      ['a plain object with toJSON', { toJSON: () => ({ replaced: true }), data: Array.from({ length: 99 }, Number) }],
      ['a top-level array', Array.from({ length: 100 }, (_, id) => ({ id }))],
      ['a top-level scalar', 'text'],
    ])('writes %s exactly like JSON.stringify', async (_, value) => {
      expect(await stringifyInSlices(value, { sliceMs: 0 })).toBe(JSON.stringify(value));
    });

    it('writes an element that nests too deep for JSON.stringify with the explicit-stack writer', async () => {
      const chain = deepChain(20_000);
      expect(() => JSON.stringify(chain)).toThrow(RangeError);
      const text = await stringifyInSlices({ data: [...Array.from({ length: 70 }, (_, id) => ({ id })), chain] });
      const shallow = Array.from({ length: 70 }, (_, id) => `{"id":${id}}`).join(',');
      expect(text).toBe(`{"data":[${shallow},${stringifyDeep(chain)}]}`);
    });

    it('lets other callbacks run while it writes a long array', async () => {
      const value = { data: Array.from({ length: 1_000 }, (_, id) => ({ id, children: [{ id }] })) };
      await expectOthersRunWhileWriting((v) => stringifyInSlices(v, { sliceMs: 0 }), value);
    });
  });
});

describe('yieldToEventLoop', () => {
  /** Runs `body` inside an I/O callback (the poll phase, where a request's first stretch runs). */
  const fromIoCallback = (body: () => Promise<void>) =>
    new Promise<void>((resolve, reject) => {
      fs.stat(__filename, () => body().then(resolve, reject));
    });

  it('lets a due timer run before going on, even when called from an I/O callback', async () => {
    const order: string[] = [];
    await fromIoCallback(async () => {
      setTimeout(() => order.push('timer'), 0);
      // The timer is due once the clock has moved past its 1 ms.
      const start = process.hrtime.bigint();
      while (process.hrtime.bigint() - start < BigInt(2_000_000));
      await yieldToEventLoop();
      order.push('after the yield');
    });
    expect(order).toEqual(['timer', 'after the yield']);
  });
});
