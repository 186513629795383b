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
  it('serves the requests of one turn with one read, started after the last of them came', async () => {
    const read = sharedReads<number>();
    const { started, run, write } = controlledReads();
    const first = read('k', run);
    write(); // returns before the second request comes, in the same turn
    const second = read('k', run);
    expect(started).toHaveLength(0);
    await tick();
    expect(started).toHaveLength(1);
    started[0].release();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
  });

  it('never gives a request a read that started before it came: it waits for the next one', async () => {
    const read = sharedReads<number>();
    const { started, run, write } = controlledReads();
    const first = read('k', run);
    await tick();
    expect(started).toHaveLength(1);
    write(); // returns while the first read is in flight, before the next requests come
    const second = read('k', run);
    const third = read('k', run);
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
    await tick();
    expect(started).toHaveLength(2);
    started.forEach((s) => s.release());
    await Promise.all([a, b]);
    const again = read('a', run);
    await tick();
    expect(started).toHaveLength(3);
    started[2].release();
    await again;
  });

  it('passes a failed read to the requests that shared it, and the next read still runs', async () => {
    const read = sharedReads<number>();
    let fail = true;
    const run = () => (fail ? Promise.reject(new Error('database away')) : Promise.resolve(7));
    await expect(Promise.all([read('k', run), read('k', run)])).rejects.toThrow('database away');
    fail = false;
    expect(await read('k', run)).toBe(7);
  });

  it('fails its requests when the read throws before returning a promise', async () => {
    const read = sharedReads<number>();
    const run = (): Promise<number> => {
      throw new Error('no connection');
    };
    await expect(read('k', run)).rejects.toThrow('no connection');
    expect(await read('k', () => Promise.resolve(3))).toBe(3);
  });
});
