import { viewBatches } from './view-batches';

/** A store of counts by document, recording every write it is asked for. */
const store = () => {
  const counts = new Map<string, number>();
  const writes: [string, string, number][] = [];
  const addViews = async (type: string, documentId: string, count: number) => {
    writes.push([type, documentId, count]);
    await Promise.resolve();
    if (documentId === 'missing') return null;
    if (documentId === 'broken') throw new Error('database away');
    const total = (counts.get(documentId) ?? 0) + count;
    counts.set(documentId, total);
    return total;
  };
  return { counts, writes, addViews };
};

describe('viewBatches', () => {
  it('counts the reads of one document in one turn with one write, each read getting its own count in order', async () => {
    const { counts, writes, addViews } = store();
    const count = viewBatches(addViews);
    expect(await Promise.all([count('article', 'a'), count('article', 'a'), count('article', 'b'), count('article', 'a')])).toEqual([
      1, 2, 1, 3,
    ]);
    expect(writes).toEqual([
      ['article', 'a', 3],
      ['article', 'b', 1],
    ]);
    expect(counts.get('a')).toBe(3);
  });

  it('keeps documents of two types apart', async () => {
    const { writes, addViews } = store();
    const count = viewBatches(addViews);
    await Promise.all([count('article', 'x'), count('page', 'x')]);
    expect(writes).toEqual([
      ['article', 'x', 1],
      ['page', 'x', 1],
    ]);
  });

  it('counts a read of a later turn with a write of its own, after the earlier ones', async () => {
    const { writes, addViews } = store();
    const count = viewBatches(addViews);
    const first = await Promise.all([count('article', 'a'), count('article', 'a')]);
    const later = await count('article', 'a');
    expect([...first, later]).toEqual([1, 2, 3]);
    expect(writes.map(([, , n]) => n)).toEqual([2, 1]);
  });

  it('counts the reads that come while the document\'s statement runs with one next statement, after it', async () => {
    const writes: number[] = [];
    let total = 0;
    const pending: (() => void)[] = [];
    const count = viewBatches<string>(
      (_type, _documentId, n) =>
        new Promise((resolve) => {
          writes.push(n);
          pending.push(() => resolve((total += n)));
        }),
    );
    const first = count('article', 'a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([1]);
    // Three reads over two turns while the first statement runs: no statement of theirs yet.
    const during = [count('article', 'a'), count('article', 'a')];
    await new Promise((resolve) => setImmediate(resolve));
    during.push(count('article', 'a'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([1]);
    pending.shift()!();
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([1, 3]);
    pending.shift()!();
    expect(await Promise.all(during)).toEqual([2, 3, 4]);
  });

  it('answers null to every read of a document without rows, and fails every read of a failed write', async () => {
    const { addViews } = store();
    const count = viewBatches(addViews);
    expect(await Promise.all([count('article', 'missing'), count('article', 'missing')])).toEqual([null, null]);
    const reads = [count('article', 'broken'), count('article', 'broken'), count('article', 'fine')];
    const settled = await Promise.allSettled(reads);
    expect(settled.map((read) => read.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  });
});
