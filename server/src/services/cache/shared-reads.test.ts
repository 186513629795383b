import { sharedReads } from './shared-reads';

/** A read whose answers the test releases one by one; each read returns the value it was started with. */
const controlledReads = () => {
  let value = 0;
  const started: { value: number; release: () => void }[] = [];
  const run = () =>
    new Promise<number>((resolve) => {
      const read = value;
      started.push({ value: read, release: () => resolve(read) });
    });
  return { started, run, write: () => (value += 1) };
};

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedReads', () => {
  it('never gives a request a read that started before it came, and serves the requests of one wait with one read', async () => {
    const read = sharedReads<number>();
    const { started, run, write } = controlledReads();
    const first = read('k', run);
    write(); // returns before the next requests come
    const second = read('k', run);
    const third = read('k', run);
    expect(started).toHaveLength(1);
    started[0].release();
    expect(await first).toBe(0);
    await tick();
    expect(started).toHaveLength(2);
    started[1].release();
    expect(await Promise.all([second, third])).toEqual([1, 1]);
  });

  it('keeps keys apart and starts afresh once nothing is in flight', async () => {
    const read = sharedReads<number>();
    const { started, run } = controlledReads();
    const a = read('a', run);
    const b = read('b', run);
    expect(started).toHaveLength(2);
    started.forEach((s) => s.release());
    await Promise.all([a, b]);
    const again = read('a', run);
    expect(started).toHaveLength(3);
    started[2].release();
    await again;
  });

  it('passes a failed read to the requests that shared it, and the next read still runs', async () => {
    const read = sharedReads<number>();
    let fail = true;
    const run = () => (fail ? Promise.reject(new Error('database away')) : Promise.resolve(7));
    await expect(read('k', run)).rejects.toThrow('database away');
    fail = false;
    expect(await read('k', run)).toBe(7);
  });
});
